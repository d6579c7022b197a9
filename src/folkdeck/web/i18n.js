// English and Japanese UI text; the games' native terms stay as they are in both.
const TEXT = {
  en: {
    lobby: "New table", game: "Game", players: "Players", preset: "Preset", none: "(none)",
    options: "Rule options", defaultIs: "default", deals: "Deals", timer: "Turn timer (seconds, 0 = off)",
    seats: "Seats", you: "You", invite: "Invite", bot: "Bot", create: "Create table",
    links: "Invite links (one per seat — keep them secret)", spectate: "Spectator link (public information only)",
    open: "Open my seat", rules: "Rules", yourTurn: "Your turn", turnOf: "Turn: {0}", play: "Play",
    clear: "Clear", top: "On the table", by: "by {0}", history: "History", results: "Results",
    standings: "Standings", cards: "{0} cards", over: "Deal over", matchOver: "Match over",
    download: "Download record", replay: "Replay", waiting: "Waiting…", spectator: "Spectating",
    outOfTurn: "You may act now:", refused: "Refused", auto: "The timer gave your seat to a bot.",
    resume: "Take my seat back", legal: "Legal plays", more: "+{0} more", fewer: "show fewer", deal: "Deal {0}/{1}", connected: "online",
    offline: "offline", copy: "Copy", prev: "◀ Prev", next: "Next ▶", step: "Step {0}/{1}",
    loadRecord: "Open a record file", seat: "Seat {0}", trick: "Trick", stock: "Stock", pot: "Pot",
    chips: "chips", close: "Close", secondsLeft: "{0}s left", lang: "日本語", title: "folkdeck — play in the browser",
  },
  ja: {
    lobby: "新しいテーブル", game: "ゲーム", players: "人数", preset: "プリセット", none: "（なし）",
    options: "ルールオプション", defaultIs: "既定", deals: "ディール数", timer: "持ち時間（秒、0 = なし）",
    seats: "席", you: "自分", invite: "招待", bot: "ボット", create: "テーブルを作る",
    links: "招待リンク（席ごと・他人に見せないでください）", spectate: "観戦リンク（公開情報のみ）",
    open: "自分の席を開く", rules: "ルール", yourTurn: "あなたの番です", turnOf: "手番: {0}", play: "出す",
    clear: "選択解除", top: "場のカード", by: "{0} が出した", history: "履歴", results: "結果",
    standings: "成績", cards: "{0}枚", over: "ディール終了", matchOver: "対戦終了",
    download: "棋譜をダウンロード", replay: "再生", waiting: "待機中…", spectator: "観戦中",
    outOfTurn: "今できること:", refused: "できません", auto: "時間切れのため、ボットが代わりに打っています。",
    resume: "席に戻る", legal: "出せる手", more: "ほか{0}通り", fewer: "少なく表示", deal: "ディール {0}/{1}", connected: "接続中",
    offline: "未接続", copy: "コピー", prev: "◀ 前", next: "次 ▶", step: "手 {0}/{1}",
    loadRecord: "棋譜ファイルを開く", seat: "席 {0}", trick: "トリック", stock: "山札", pot: "ポット",
    chips: "チップ", close: "閉じる", secondsLeft: "残り{0}秒", lang: "English", title: "folkdeck — ブラウザで遊ぶ",
  },
};
const TITLES_JA = { kaphai: "カップハイ", gouji: "够级（ゴウジー）", cambio: "カンビオ", cangkul: "チャンクル",
  burro_es: "ブーロ（スペイン）", burro_pt: "ブーロ（ポルトガル）" };
const ACTIONS_JA = { pass: "パス", draw: "引く", "draw left": "左の山から引く", "draw right": "右の山から引く",
  change: "交換する（カンビオ）", keep: "持つ", cucco: "クック！" };

export let lang = localStorage.getItem("folkdeck.lang") || ((navigator.language || "en").startsWith("ja") ? "ja" : "en");
export function setLang(l) { lang = l; localStorage.setItem("folkdeck.lang", l); document.documentElement.lang = l; }
export function t(key, ...args) {
  const s = (TEXT[lang] && TEXT[lang][key]) || TEXT.en[key] || key;
  return s.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)]));
}
export function gameTitle(name, title) { return lang === "ja" && TITLES_JA[name] ? `${TITLES_JA[name]} · ${title}` : title; }
export function actionLabel(a) { return lang === "ja" && ACTIONS_JA[a] ? `${ACTIONS_JA[a]} (${a})` : a; }
export function applyStatic(root = document) {
  root.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
}
