// Text at the edge, in the browser: the message catalogs of folkdeck.i18n (served as
// /i18n/<lang>.json, the display notations as /i18n/notation.json) rendered with folkdeck's
// template language, which src/folkdeck/i18n/__init__.py (its Renderer) implements alike; one
// file of examples checks both (tests/i18n/template_vectors.json). Data comes in (facts,
// coded refusals, term keys, seats, cards); sentences are made here and nowhere else.
//
// A placeholder is "{" a name, optionally ":" a kind, "}"; nothing else is special (no
// escape, no position, no format spec: any other brace is text).
//   {x}         the value as text (plainText) {x:seat}  a seat's name ("seat 2", "you", a player's name)
//   {x:seats}   a list of seats             {x:card} / {x:cards}  cards in the pack's display notation
//   {x:term}    term.<game>.<x> or term.<x> {x:place} an ordinal place ("1st", "1位")
//   {x:num}     a number as text (plainText)
//   {"plural": "n", "one": ..., "other": ...}   the CLDR plural category of n (a list: its length)
//   {"person": "seat", "you": ..., "other": ...} "you" when the parameter is the viewer's seat
//   {"same": "a b", "yes": ..., "no": ...}      whether two parameters are equal
//   {"select": "p", "<value>": ..., "other": ...} by a parameter's value (as JSON writes it: null, true)

export const LANGUAGES = ["en", "ja"];
// The page's language: ?lang= in its address (kept for the next visit), else the one chosen
// before, else the browser's.
const asked = typeof location === "undefined" ? null : new URLSearchParams(location.search).get("lang");
if (LANGUAGES.includes(asked)) localStorage.setItem("folkdeck.lang", asked);
const stored = localStorage.getItem("folkdeck.lang");
export let lang = LANGUAGES.includes(stored) ? stored
  : ((navigator.language || "en").startsWith("ja") ? "ja" : "en");
let messages = {};
let notations = {};

/** Loads the current language's catalog and the display notations (before any rendering). */
export async function loadCatalogs() {
  const [catalog, notation] = await Promise.all([
    fetch(`/i18n/${lang}.json`).then((r) => r.json()),
    fetch("/i18n/notation.json").then((r) => r.json()),
  ]);
  messages = catalog; notations = notation;
  document.documentElement.lang = lang;
}

/** Switches the language (kept for the next visit) and loads its catalog. */
export async function setLang(l) {
  lang = l; localStorage.setItem("folkdeck.lang", l);
  await loadCatalogs();
}

/** Whether the catalog has the message ``key``. */
export const has = (key) => Object.prototype.hasOwnProperty.call(messages, key);

/** The CLDR cardinal plural category, as Babel gives it (English one/other, Japanese other). */
export function pluralCategory(language, n) {
  return new Intl.PluralRules(language).select(Number(n) || 0);
}

/** A place as people write it: 1st, 12th, 23rd; 2位. */
const ORDINAL_SUFFIXES = { one: "st", two: "nd", few: "rd", other: "th" };
const englishOrdinals = new Intl.PluralRules("en", { type: "ordinal" });
export function ordinal(language, n) {
  if (language === "ja") return `${n}位`;
  return `${n}${ORDINAL_SUFFIXES[englishOrdinals.select(n)]}`;
}

const SYMBOLS = { S: "♠", C: "♣", D: "♦", H: "♥" };
const SUIT_WORDS = { S: "spades", C: "clubs", D: "diamonds", H: "hearts" };  // the suits' term keys

/** A pack's display notation (notation.json): its ranks, suits, symbols and suit signs. */
export const packNotation = (pack) => notations[pack] || {};

/** Rank and suit of a card in notation ("10H" → 10, H); a joker or a named card has no suit. */
export function splitCard(text) {
  if (text.length >= 2 && "SCDH".includes(text[text.length - 1]) && text !== "BJ" && text !== "RJ")
    return { rank: text.slice(0, -1), suit: text[text.length - 1] };
  return { rank: text, suit: "" };
}

/** A card in a pack's display notation: the Spanish caballo of clubs, QC, shows as 11B. */
export function displayCard(card, notation = "french", { symbols = false } = {}) {
  const text = String(card);
  const table = notations[notation] || {};
  const whole = (table.card || {})[text];
  if (whole != null) return whole;
  let { rank, suit } = splitCard(text);
  rank = (table.rank || {})[rank] ?? rank;
  suit = symbols ? ((table.symbol || {})[suit] ?? SYMBOLS[suit] ?? suit) : ((table.suit || {})[suit] ?? suit);
  return rank + suit;
}

const SIGNIFICANT = 6;  // the significant digits of a number that is not whole

/** A parameter as text in a message ({x}, {x:num}, a term's key): nothing for null;
 * true/false; a whole number's digits; another number rounded to six significant digits
 * (halves away from zero), written without an exponent or trailing zeros; a list's items so written, ", "-separated. */
export function plainText(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return value.map(plainText).join(", ");
  if (typeof value !== "number" || !Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  // halves away from zero, on the number's exact binary value (toFixed does so)
  const decimals = Math.max(0, SIGNIFICANT - 1 - Math.floor(Math.log10(Math.abs(value))));
  let text = value.toFixed(decimals);
  if (text.includes(".")) text = text.replace(/0+$/, "").replace(/\.$/, "");
  return text === "-0" ? "0" : text;
}

// A parameter as a "select" key, written as JSON writes it (null, true, false).
function selectKey(value) {
  if (value === null || value === undefined || typeof value === "boolean") return JSON.stringify(value ?? null);
  return plainText(value);
}

const PLACEHOLDER = /\{(\w+)(?::(\w+))?\}/g;

/** Renders messages of the current catalog for one table and one viewer (see the top). */
export class Renderer {
  // ``suitWords``: a card of a pack whose suits have names of their own (notation.json "suit":
  // the Spanish and Portuguese packs) reads as its rank and the suit's name, "12 espadas", as the
  // table's faces and chips show it: "12E" or "12C" reads as another card (C: clubs?).
  constructor({ game = "", viewer = null, names = null, notation = "french", symbols = false, suitWords = false } = {}) {
    this.game = game; this.viewer = viewer; this.names = names; this.notation = notation; this.symbols = symbols;
    this.suitWords = suitWords;
  }

  /** A fact ({type, ...fields}) as a sentence (key fact.<type>). */
  fact(fact) {
    const { type, ...params } = fact;
    return this.message(`fact.${type}`, params);
  }

  /** One event of a deal's history ({index, seat, action, act, facts}) as a line: the action
   * (its fact; the record line when the game describes none), then the facts that followed. */
  event(event) {
    const act = event.act ? this.fact(event.act) : this.message("ui.event_action", { seat: event.seat, action: event.action });
    const facts = (event.facts || []).map((f) => this.fact(f));
    return facts.length ? `${act} — ${facts.join(" · ")}` : act;
  }

  /** A coded refusal ({reason, params}) as a sentence; a reason that is no key is shown as is. */
  error(error) {
    const key = `error.${error.reason}`;
    if (!has(key)) return this.format(String(error.reason ?? ""), {});
    return this.message(key, error.params || {}, { sentence: false });
  }

  /** The message ``key``; a key the catalog lacks renders as itself. English facts start upper case. */
  message(key, params = {}, { sentence = true } = {}) {
    let text = this.format(has(key) ? messages[key] : key, params);
    if (sentence && text && lang === "en") text = text[0].toUpperCase() + text.slice(1);
    return text;
  }

  /** A message of the browser's own (ui.<key>), never capitalised. */
  ui(key, params = {}) { return this.message(`ui.${key}`, params, { sentence: false }); }

  /** A term (a combination's name, a reason, a phase): term.<game>.<key>, term.<key>, or the key. */
  term(value) {
    const key = plainText(value);
    for (const full of [`term.${this.game}.${key}`, `term.${key}`]) if (has(full)) return String(messages[full]);
    return key;
  }

  /** Whether the catalog names ``value`` as a term of this game (or a shared one). */
  hasTerm(value) { return has(`term.${this.game}.${value}`) || has(`term.${value}`); }

  seat(seat) {
    if (seat === null || seat === undefined) return this.term("stock");
    if (seat === this.viewer) return String(messages["seat.you"] ?? "you");
    if (this.names && seat >= 0 && seat < this.names.length && this.names[seat]) return this.names[seat];
    return this.format(messages["seat.name"] ?? "seat {n}", { n: seat });
  }

  cards(cards) {
    let list = cards;
    if (typeof list === "string") list = list.split(/\s+/).filter(Boolean);
    if (!Array.isArray(list)) list = [list];
    // a card the game names in the catalog (the Cucco pack's OWL, 梟 in Japanese) by its name
    let worded = false;
    const shown = list.map((c) => {
      const named = this.cardTerm(c);
      if (named) { worded = worded || /[^A-Z0-9]/.test(named); return named; }
      const words = this.suitWords ? this.cardWords(c) : "";
      if (!words) return displayCard(c, this.notation, { symbols: this.symbols });
      worded = true;
      return words;
    });
    if (!worded) return shown.join(" ");
    // Words are a list ("12 espadas, 3 copas"), the same card twice once with its count
    // ("7, 7, red joker ×2" reads better than a name said twice).
    const runs = [];
    for (const name of shown) {
      const run = runs[runs.length - 1];
      if (run && run.name === name) run.count += 1; else runs.push({ name, count: 1 });
    }
    return runs.map((r) => (r.count > 1 ? `${r.name} ×${r.count}` : r.name)).join(this.ui("list_separator"));
  }

  /** A card people know by a name rather than a rank and suit: the Cucco pack's OWL
   * (term.<game>.OWL, 梟 in Japanese), a joker (card.<game>.RJ, else card.RJ: "red joker",
   * 赤ジョーカー; never the code "RJ"); else "". */
  cardTerm(card) {
    const c = String(card);
    for (const key of [`term.${this.game}.${c}`, `card.${this.game}.${c}`, `card.${c}`])
      if ((this.game || !key.startsWith("term.")) && has(key)) return String(messages[key]);
    return "";
  }

  /** ``card`` in its pack's words when the pack names its suits ("12 espadas"), else "". A
   * pack with signs of its own (Spanish) draws the sign beside the words; a French-suited one
   * whose suits have other names (Portuguese) keeps its ♠♣♦♥: "R♣ paus". */
  cardWords(card) {
    const word = this.suitWord(card);
    if (!word) return "";
    const { rank, suit } = splitCard(String(card));
    const signed = ((notations[this.notation] || {}).suit_sign || {})[suit];
    return `${displayCard(signed ? rank : card, this.notation, { symbols: !signed })} ${word}`;
  }

  /** The name of ``card``'s suit when its pack names its suits and the game's catalog
   * names the suit (term.<game>.spades: "espadas"), else "". */
  suitWord(card) {
    const { suit } = splitCard(String(card));
    if (!suit || !((notations[this.notation] || {}).suit || {})[suit]) return "";
    const word = SUIT_WORDS[suit];
    return this.hasTerm(word) ? this.term(word) : "";
  }

  format(message, params) {
    while (message !== null && typeof message === "object") message = this.choose(message, params);
    return String(message).replace(PLACEHOLDER, (_, name, kind) => this.value(name, kind, params));
  }

  choose(forms, params) {
    if ("plural" in forms) {
      const value = params[forms.plural] ?? 0;
      const n = Array.isArray(value) ? value.length : (typeof value === "number" ? value : 0);
      const category = pluralCategory(lang, n);
      return forms[category] ?? forms.other ?? "";
    }
    if ("person" in forms) {
      let who = params[forms.person];
      if (Array.isArray(who)) who = who.length === 1 ? who[0] : null;  // a list is "you" only when it is you alone
      const you = this.viewer !== null && this.viewer !== undefined && who === this.viewer;
      return you ? forms.you : forms.other;
    }
    if ("same" in forms) {
      const [first, second] = String(forms.same).split(" ");
      return JSON.stringify(params[first] ?? null) === JSON.stringify(params[second] ?? null) ? forms.yes : forms.no;
    }
    if ("select" in forms) return forms[selectKey(params[forms.select])] ?? forms.other ?? "";
    throw new Error(`a message object needs plural, person, same or select: ${JSON.stringify(forms)}`);
  }

  value(name, kind, params) {
    const value = params[name];
    if (kind === "seat") return this.seat(value);
    if (kind === "seats") return this.join((value || []).map((s) => this.seat(s)));
    if (kind === "card" || kind === "cards") return this.cards(value ?? []);
    if (kind === "term") return this.term(value);
    if (kind === "place") return ordinal(lang, Number(value || 0));
    return plainText(value);  // {x} and {x:num} alike
  }

  join(items) {
    if (lang === "ja") return items.join("、");
    if (items.length <= 2) return items.join(" and ");
    return items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
  }
}

/** A renderer without a table: the lobby's and the replay's own texts. */
export const plain = () => new Renderer();

/** The browser's own message ui.<key> (lobby, headings, buttons). */
export function t(key, params = {}) { return plain().ui(key, params); }

/** Any catalog message ``key`` (a term, a card's name), as it is written (never capitalised). */
export function text(key, params = {}) { return plain().message(key, params, { sentence: false }); }

/** Fills every element marked data-t="key" with ui.<key>. */
export function applyStatic(root = document) {
  root.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
}

/** A game's title in the current language (term.<game>.title), else the spec's title. */
export function gameTitle(game, title) {
  return has(`term.${game}.title`) ? String(messages[`term.${game}.title`]) : title;
}
