// English and Japanese: the UI text and each game's terms come from terms.js. English keeps the
// English names with the native term in parentheses where docs/rules uses it; Japanese uses the
// seeds' own terms. Engine prose (history notes, deal lines) is translated by phrase in ja mode.
import { TEXT, TERMS } from "./terms.js";

export let lang = localStorage.getItem("folkdeck.lang") || ((navigator.language || "en").startsWith("ja") ? "ja" : "en");
export function setLang(l) { lang = l; localStorage.setItem("folkdeck.lang", l); document.documentElement.lang = l; }
export function t(key, ...args) {
  const s = (TEXT[lang] && TEXT[lang][key]) ?? TEXT.en[key] ?? key;
  return s.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)]));
}
const terms = (game) => (TERMS[lang] && TERMS[lang][game]) || TERMS.en[game] || {};
/** A game's term of one group (actions, shapes, phases, reasons, modes, cards); the key if none. */
export function term(game, group, key) {
  const g = terms(game)[group];
  if (typeof g === "string") return g;  // a plain text (the lobby's summary)
  return (g || {})[key] ?? key;
}
export function gameTitle(name, title) { return terms(name).title || title; }
/** An action's label: the word translated, the cards or seats after it kept in notation. */
export function actionLabel(game, action) {
  const acts = terms(game).actions || {};
  if (acts[action] != null) return acts[action];
  const [head, ...rest] = action.split(" ");
  return acts[head] != null && rest.length ? `${acts[head]} ${rest.join(" ")}` : action;
}
/** The Cucco pack's card names in the current language (empty in English: the card says it). */
export function cuccoNames() { return lang === "ja" ? TERMS.ja.cambio.cards : {}; }
export function applyStatic(root = document) {
  root.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
}

const CUCCO_NAMES = /\b(FOOL|LION|MASK|BUCKET|HOUSE|CAT|HORSE|MAN|OWL)\b/g;
const PLACES = { "Tou Ke": "头科", "Er Ke": "二科", "San Ke": "三科", "Si Ke": "四科", "Er La": "二落", "Da La": "大落" };
const SUITS = { spades: "スペード", hearts: "ハート", diamonds: "ダイヤ", clubs: "クローバー",
  espadas: "剣", copas: "杯", oros: "金貨", ouros: "金貨", bastos: "棍棒", paus: "棍棒" };
const S = "[Ss]eat (\\d+)";
// [pattern, Japanese]: most specific first; "$n" are the captured groups.
const PHRASES = [
  [`${S} wins the trick and leads`, "席$1 が場を取り、次を出す"],
  [`${S} wins the trick; ${S} leads`, "席$1 が場を取り、席$2 が次を出す"],
  [`${S} goes out, place (\\d+)`, "席$1 が上がり（$2位）"],
  [`putuh: ${S} wins the deal`, "プトゥッフ: 席$1 の勝ち"],
  [`${S} declares putuh \\(([A-F]): [^)]*\\)`, "席$1 がプトゥッフを宣言（$2）"],
  [`${S} throws (.+?); (.+?) by ${S} still leads`, "席$1 が $2 を捨てる（$4 の $3 が場に残る）"],
  ["the deal is over", "ディール終了"],
  [`${S} may not act now; it is ${S}'s turn`, "席$1 は今は動けません（席$2 の番です）"],
  [`${S} leads this trick and may not pass`, "席$1 は場を新しく出す番なのでパスできません"],
  ["^(.+?) does not beat (.+?): ", "$1 は $2 に勝てません: "],
  [`gouji: ${S} answers once more`, "ゴウジー: 席$1 がもう一度応じる"],
  [`gouji: ${S} answers`, "ゴウジー: 対面の席$1 が応じる"],
  ["gouji: (.+) may burn", "ゴウジー: $1 がシャオパイ（烧牌）できる"],
  [" then ", " → "],
  [`${S} goes out: ([A-Za-z]+ [A-Za-z]+) (\\S+)`, "席$1 が上がる: $3"],
  [`${S} leads \\(上班\\)`, "席$1 が最初に出す（上班）"],
  [`${S} asks ${S} to let them go first \\(先让让\\)`, "席$1 が席$2 にシエンランラン（先让让）"],
  [`${S} burns \\(烧牌\\) instead of ${S}`, "席$1 が席$2 の代わりにシャオパイ（烧牌）"],
  [`${S} shows two 3s of one suit \\((.+?)\\) and leads`, "席$1 が同じスートの3を2枚（$2）見せて最初に出す"],
  [`${S} calls revolution \\(革命\\)`, "席$1 が革命を宣言"],
  [`${S} objects to the revolution`, "席$1 が革命に異議"],
  [`${S} withdraws the revolution`, "席$1 が革命を取り下げる"],
  [`revolution: ${S} has the cards dealt again`, "革命: 席$1 がカードを配り直す"],
  [`${S} lays the hand open`, "席$1 が手札を公開"],
  [`${S} opens \\(开点\\)`, "席$1 が開点（开点）"],
  [`${S} gives (\\d+) card\\(s\\) to ${S} \\(([^)]*)\\)`, "席$1 が席$3 に $2枚渡す（進貢・$4）"],
  [`${S} returns (\\d+) card\\(s\\) to ${S}`, "席$1 が席$3 に $2枚返す（還貢）"],
  [`seats (\\d+) and (\\d+) are teammates: no exchange`, "席$1 と席$2 は味方: 交換なし"],
  [`${S} holds four red jokers: liberation \\(解放\\), no exchange`, "席$1 は赤ジョーカー4枚: 解放、交換なし"],
  ["turn order now", "プレイの順番:"],
  [`${S} \\(Da La\\) has ${S} draw first`, "席$1（大落）の指名で席$2 が最初に取る"],
  [`${S} \\(Da La\\) names the first drawer and leads the next deal`, "席$1（大落）が最初に取る人を指名し、次のディールで最初に出す"],
  [`${S} calls cucco \\(クク\\) with the OWL: the exchanges end`, "席$1 が梟で「クク」: 交換終了"],
  [`${S} holds the OWL and calls cucco: the exchanges end`, "席$1 は梟を持っていて「クク」: 交換終了"],
  ["the stock turns up an OWL: the stock calls cucco, the exchanges end", "山札から梟: 山札が「クク」、交換終了"],
  [`${S} exchanges cards with ${S}`, "席$1 が席$2 とカードを交換"],
  [`${S} takes the top card of the stock`, "席$1 が山札の一番上と交換"],
  [" and discards (\\S+) face up", "、$1 を表向きに捨てる"],
  [`${S} receives the FOOL in the exchange and is disqualified`, "席$1 が交換で道化を受け取り失格"],
  [`${S} holds a MAN and refuses \\(「人間です」\\): ${S}, who asked, is disqualified`, "席$1 は人間で交換拒否（「人間です」）: 申し込んだ席$2 が失格"],
  [`${S} holds a (\\w+): ${S}'s request passes on to (.+)`, "席$1 は $2 で交換拒否: 席$3 の交換は $4 へ"],
  [`${S} holds a CAT and refuses \\(「ニャー」\\)`, "席$1 は猫で交換拒否（「ニャー」）"],
  [`${S} holds the lowest card and loses`, "席$1 が最弱で負け"],
  [`${S} shows and discards (\\w+)`, "席$1 が $2 を見せて捨てる"],
  ["the stock is used up: the discards are shuffled into a new stock", "山札切れ: 捨て札をシャッフルして新しい山札に"],
  ["showdown: ", "オープン: "],
  ["is disqualified", "が失格"],
  [`${S} is the only player left: no showdown`, "残りは席$1 だけ: オープンなし"],
  [`${S} cannot follow (\\w+) and the stock is empty: passes`, "席$1 は $2 がなく山札もない: パス"],
  [`${S} cannot follow (\\w+) and the stock is`, "席$1 は $2 がなく山札は"],
  [`${S} draws (\\S+) and plays it`, "席$1 が $2 をドローして出す"],
  [`${S} draws and plays it`, "席$1 がドローして出す"],
  [`${S} takes (.+)`, "席$1 が $2 を取る"],
  [`${S} has played the last card and wins the deal`, "席$1 が最後のカードを出して勝ち"],
  [`${S} is the last holding cards and loses the deal`, "席$1 が最後までカードを持っていて負け"],
  [`${S} is out`, "席$1 が上がり"],
  [`${S} knocks the stock over and takes all (\\d+) cards?`, "席$1 が山札を倒し、$2枚すべて取る"],
  [`no card has left play for (\\d+) tricks: the deal ends in a stalemate`, "$1トリックの間カードが減らない: 膠着で終了"],
  // deal lines and standings
  [`Deals played: (\\d+) of (\\d+)`, "終了したディール: $1/$2"],
  [`Deals played: (\\d+); the match ends at (\\d+) penalties`, "終了したディール: $1（罰点 $2 で対戦終了）"],
  [`Game (\\d+), deals played in it: (\\d+); pot (\\d+)`, "ゲーム $1、ディール $2 回; ポット $3"],
  [`Game (\\d+), deal (\\d+): losers: (.*)`, "ゲーム $1 ディール $2 の負け: $3"],
  [`Game (\\d+): seats are drawn from the stock`, "ゲーム $1: 山札から引いて席決め"],
  [`${S} drew strongest and deals first`, "最強を引いた席$1 が最初の親"],
  [`everyone pays (\\d+) into the pot \\(pot (\\d+)\\)`, "全員が参加料 $1 をポットへ（ポット $2）"],
  [`${S} pays (\\d+) \\(pot (\\d+)\\)`, "席$1 が $2 支払う（ポット $3）"],
  [`${S}: (-?\\d+) chips`, "席$1: $2 チップ"],
  [`${S}: (-?\\d+) points`, "席$1: $2 点"],
  [`${S}: (-?\\d+) penalties`, "席$1: 罰点 $2"],
  [`team (\\S+): ([-+]?\\d+) points`, "チーム $1: $2 点"],
  [`Team (\\S+): ([-+]?\\d+), team (\\S+): ([-+]?\\d+)`, "チーム $1: $2、チーム $3: $4"],
  [`${S} came (\\d+)\\w+ and leads the next deal`, "席$1 が $2位、次のディールで最初に出す"],
  [`${S} is the burro \\(donkey\\): penalty (\\d+) of (\\d+)`, "席$1 がブッロ（ロバ）: 罰点 $2/$3"],
  [`${S} deals next; ${S} leads`, "次の親は席$1、席$2 がリード"],
  [`${S} emptied the hand and wins the deal`, "席$1 の手札がなくなり勝ち"],
  ["Places: ", "順位: "],
  ["A sweep: the opposites exchange and the next deal is special", "闷（上位3人が同じチーム）: 対面どうしで交換し、次は特別なディール"],
  [`Revolution by seat (\\d+): the cards are dealt again; seat (\\d+) is kai pai`, "席$1 の革命: 配り直し、席$2 が開牌（カイパイ）"],
  [`Putuh! seat ([\\d, ]+) wins the deal; the next deal is a 3-game`, "プトゥッフ！ 席$1 の勝ち。次のディールは「3」を出し合って始める"],
  [`${S} was the last holding cards and loses`, "席$1 が最後までカードを持っていて負け"],
  [`${S} loses the match`, "席$1 が対戦の敗者"],
  [`Stalemate after (\\d+) tricks without progress: seats? ([\\d, ]+) held the fewest cards`, "$1トリック進展なしで膠着: 席$2 の手札が最も少ない"],
  [`Stalemate after (\\d+) tricks without progress: seats? ([\\d, ]+) held the most cards`, "$1トリック進展なしで膠着: 席$2 の手札が最も多い"],
  ["fewest", "少ない"], ["most", "多い"],
  ["nobody loses", "負けなし"],
  [`${S} is eliminated \\(cannot pay (\\d+)\\)`, "席$1 は $2 を払えず脱落"],
  [`${S} is eliminated`, "席$1 が脱落"],
  [`${S} is the last survivor and takes the pot of (\\d+)`, "席$1 が最後の生き残り: ポット $2 を総取り"],
  ["every remaining player would be eliminated: the deal is replayed", "残り全員が脱落になるため、ディールをやり直す"],
  [`every remaining player would be eliminated: they share the pot of (\\d+)`, "残り全員が脱落: ポット $1 を分け合う"],
  ["cannot pay the next entry fee: bankrupt, the session ends", "は次の参加料を払えず破産: 終了"],
  [" \\(eliminated\\)", "（脱落）"],
  ["the stock is used up: (\\d+) discards are shuffled into a new stock", "山札切れ: 捨て札 $1 枚をシャッフルして新しい山札に"],
  ["losers: ", "負け: "],
  ["Match end", "対戦終了"],
  [`a tie for the first choice: (.*) draw again`, "同点: $1 が引き直す"],
  ["draw: ", "引いたカード: "],
  ["the next stock card", "山札の次のカード"],
  ["the stock", "山札"],
  [`${S}`, "席$1"],
];
const COMPILED = PHRASES.map(([p, r]) => [new RegExp(p, "g"), r]);

/** Engine prose (a history note, a deal line, standings) in the current language. */
export function prose(game, text) {
  if (lang !== "ja" || !text) return text;
  let s = String(text);
  for (const [re, r] of COMPILED) s = s.replace(re, r);
  s = s.replace(/\b(Tou Ke|Er Ke|San Ke|Si Ke|Er La|Da La)\b/g, (m) => PLACES[m]);
  s = s.replace(/\b(spades|hearts|diamonds|clubs|espadas|copas|oros|ouros|bastos|paus)\b/g, (m) => SUITS[m]);
  if (game === "cambio") s = s.replace(CUCCO_NAMES, (m) => term("cambio", "cards", m));
  return s;
}
