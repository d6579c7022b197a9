// Cards drawn as SVG by folkdeck's own code: French, Spanish, Portuguese and Cucco packs.
// cardSVG(code, notation) -> SVG markup: the rank as the pack's display notation has it
// (/i18n/notation.json, the same table the terminal uses), the record notation in the corner.
import { displayCard, packNotation, splitCard } from "./i18n.js";

const RED = "#c62828", BLACK = "#1b1b1b";
const SUIT_PATHS = {
  S: "M50 12 C30 38 10 50 22 68 C30 78 44 74 47 66 L42 88 H58 L53 66 C56 74 70 78 78 68 C90 50 70 38 50 12Z",
  H: "M50 86 C30 66 10 52 14 34 C18 18 40 16 50 32 C60 16 82 18 86 34 C90 52 70 66 50 86Z",
  D: "M50 10 L82 50 L50 90 L18 50Z",
  C: "M50 12 a16 16 0 1 1 -0.1 0Z M28 40 a16 16 0 1 1 -0.1 0Z M72 40 a16 16 0 1 1 -0.1 0Z M46 50 L42 88 H58 L54 50Z",
};
const CUCCO = {
  FOOL: ["-4", "#6a1b9a", "fool"], LION: ["-3", "#ef6c00", "lion"], MASK: ["-2", "#37474f", "mask"],
  BUCKET: ["-1", "#5d4037", "bucket"], HOUSE: ["11", "#2e7d32", "house"], CAT: ["12", "#455a64", "cat"],
  HORSE: ["13", "#795548", "horse"], MAN: ["14", "#1565c0", "man"], OWL: ["15", "#4e342e", "owl"],
};
// The Nifty 44-card edition's extra number cards, printed in Roman numerals (§1.3 of the rules of
// the game the Cucco pack is played with; no game is named in the web code):
// drawn like the other numbers, coloured by their number.
const NIFTY_NUMBERS = { XI: 11, XII: 12 };
export { splitCard };

// A card's name in the pack's words, shown on hover and read aloud: its rank and the suit as
// the game's catalog names it (a Spanish 12 of espadas: "12 espadas"), else its notation.
const SUIT_WORDS = { S: "spades", C: "clubs", D: "diamonds", H: "hearts" };
export function cardName(R, code) {
  const words = R.cardWords(code);  // a pack that names its suits: as its chips say it
  if (words) return words;
  const { rank, suit } = splitCard(code);
  const word = SUIT_WORDS[suit];
  return word && R.hasTerm(word) ? `${R.cards([rank])} ${R.term(word)}` : R.cards([code]);
}

// A Latin pack's sign for a suit (notation.json "suit_sign": the Spanish pack draws oros, copas,
// espadas, bastos), else null: the French ♠♣♦♥ (the Portuguese pack is French-suited, its suits named
// ouros, copas, espadas, paus: pagat.com, "Card games in Portugal").
const signOf = (suit, pack) => (packNotation(pack).suit_sign || {})[suit] || null;
const SIGN_COLORS = { sword: "#22335a", cup: RED, coin: "#a0660a", club: "#1b4d1f" };

function suitShape(suit, x, y, size, pack) {
  const s = size / 100;
  const sign = signOf(suit, pack);
  if (sign) return latinSign(sign, x, y, size);
  const fill = suit === "H" || suit === "D" ? RED : BLACK;
  return `<path d="${SUIT_PATHS[suit]}" fill="${fill}" transform="translate(${x - size / 2},${y - size / 2}) scale(${s})"/>`;
}

/** A card's suit sign alone, as a small inline SVG for a chip or a line (the same sign as on
 * the card's face), or "" for a card of no suit or a French pack (its ♠♣♦♥ are in the text). */
export function suitSignSVG(code, pack, size = 16) {
  const { suit } = splitCard(code);
  if (!suit || !signOf(suit, pack)) return "";
  return `<svg class="suit-sign" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20" width="${size}" height="${size}" aria-hidden="true">${suitShape(suit, 10, 10, 19, pack)}</svg>`;
}

function latinSign(sign, x, y, size) {
  const r = size / 2;
  if (sign === "coin") // oros, ouros: a gold coin
    return `<circle cx="${x}" cy="${y}" r="${r * 0.8}" fill="#f2b705" stroke="#a0660a" stroke-width="${r * 0.12}"/>` +
      `<circle cx="${x}" cy="${y}" r="${r * 0.38}" fill="none" stroke="#a0660a" stroke-width="${r * 0.08}"/>`;
  if (sign === "cup") // copas: a cup
    return `<path d="M${x - r * 0.7} ${y - r * 0.7} H${x + r * 0.7} Q${x + r * 0.6} ${y + r * 0.1} ${x} ${y + r * 0.2} Q${x - r * 0.6} ${y + r * 0.1} ${x - r * 0.7} ${y - r * 0.7}Z M${x - r * 0.12} ${y + r * 0.2} V${y + r * 0.6} H${x - r * 0.45} V${y + r * 0.8} H${x + r * 0.45} V${y + r * 0.6} H${x + r * 0.12} V${y + r * 0.2}Z" fill="#c62828" stroke="#7f1010" stroke-width="${r * 0.06}"/>`;
  if (sign === "sword") // espadas: a sword
    return `<path d="M${x} ${y - r * 0.95} L${x + r * 0.14} ${y + r * 0.35} H${x - r * 0.14}Z" fill="#546e9a" stroke="#22335a" stroke-width="${r * 0.05}"/>` +
      `<rect x="${x - r * 0.45}" y="${y + r * 0.35}" width="${r * 0.9}" height="${r * 0.14}" fill="#a0660a"/>` +
      `<rect x="${x - r * 0.08}" y="${y + r * 0.49}" width="${r * 0.16}" height="${r * 0.45}" fill="#5d4037"/>`;
  // bastos, paus: a club (cudgel)
  return `<path d="M${x - r * 0.25} ${y + r * 0.95} L${x - r * 0.05} ${y - r * 0.9} Q${x + r * 0.45} ${y - r * 0.95} ${x + r * 0.3} ${y - r * 0.4} L${x + r * 0.2} ${y + r * 0.95}Z" fill="#2e7d32" stroke="#1b4d1f" stroke-width="${r * 0.06}"/>`;
}

/** A card face. ``name``: the card's name in the reader's language, printed under a named
 * card (the Cucco pack's OWL is 梟 in 日本語) when it differs from the code; ``label``: what
 * the face is read as ("12 espadas"; by default the name, else the pack's notation). */
export function cardSVG(code, pack = "french", { width = 64, name = "", label = "" } = {}) {
  const h = Math.round(width * 1.4);
  label = label || name || displayCard(code, pack, { symbols: true });  // the card as the pack names it
  const open = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="${width}" height="${h}" role="img" aria-label="${label}">`;
  const frame = `<rect x="2" y="2" width="96" height="136" rx="9" fill="#fffdf7" stroke="#555" stroke-width="2"/>`;
  if (pack === "cucco") return open + frame + cucco(code, name !== code ? name : "") + "</svg>";
  const { rank, suit } = splitCard(code);
  if (!suit && rank !== "BJ" && rank !== "RJ") { // a rank alone: Gou Ji writes plays by ranks
    return open + frame + `<text x="50" y="88" font-size="54" text-anchor="middle" fill="${BLACK}" font-weight="700">${rank}</text>` +
      `<text x="10" y="24" font-size="18" fill="${BLACK}" font-weight="700">${rank}</text></svg>`;
  }
  if (!suit) { // a joker: drawn (a jester's cap and a star in its colour), no word nor code on it
    const color = rank === "RJ" ? RED : BLACK;
    const star = (x, y, r) => `<path d="${starPath(x, y, r)}" fill="${color}"/>`;
    return open + frame + star(50, 52, 20) +
      `<path d="M28 78 L38 102 L50 80 L62 102 L72 78 L67 114 H33Z" fill="${color}"/>` +
      `<circle cx="28" cy="76" r="4" fill="${color}"/><circle cx="50" cy="78" r="4" fill="${color}"/><circle cx="72" cy="76" r="4" fill="${color}"/>` +
      star(17, 20, 9) + `<g transform="rotate(180 50 70)">${star(17, 20, 9)}</g></svg>`;
  }
  const sign = signOf(suit, pack);
  const color = sign ? SIGN_COLORS[sign] : (suit === "H" || suit === "D" ? RED : BLACK);
  const shown = displayCard(rank, pack);  // the rank alone: 11 for the Spanish caballo
  let body = "";
  if (["J", "Q", "K"].includes(rank)) {
    body = `<rect x="22" y="30" width="56" height="80" rx="6" fill="${sign ? "#fff3d6" : "#eef3ff"}" stroke="${color}" stroke-width="2"/>` +
      `<text x="50" y="84" font-size="40" text-anchor="middle" fill="${color}" font-family="serif" font-weight="700">${shown}</text>` +
      suitShape(suit, 50, 48, 22, pack);
  } else {
    body = suitShape(suit, 50, 74, 54, pack);
  }
  const corner = `<text x="9" y="27" font-size="${shown.length > 1 ? 20 : 24}" fill="${color}" font-weight="700" font-family="sans-serif">${shown}</text>` +
    suitShape(suit, 17, 42, 17, pack) +
    `<g transform="rotate(180 50 70)"><text x="9" y="27" font-size="${shown.length > 1 ? 20 : 24}" fill="${color}" font-weight="700" font-family="sans-serif">${shown}</text></g>`;
  // Only the pack's own rank and suit: a French code in the corner ("KS" on a 12 of espadas)
  // reads as another card to whoever plays with this pack.
  return open + frame + body + corner + "</svg>";
}

// A five-pointed star's path around (x, y), of outer radius r.
function starPath(x, y, r) {
  const points = Array.from({ length: 10 }, (_, k) => {
    const a = (Math.PI / 5) * k - Math.PI / 2, d = k % 2 ? r * 0.45 : r;
    return `${(x + d * Math.cos(a)).toFixed(1)} ${(y + d * Math.sin(a)).toFixed(1)}`;
  });
  return `M${points.join(" L")}Z`;
}

function cucco(code, name) {
  const named = CUCCO[code];
  const value = named ? named[0] : code;
  const number = NIFTY_NUMBERS[code] ?? Number(code);
  const color = named ? named[1] : `hsl(${(number * 31) % 360} 55% 38%)`;
  const label = named ? (name || code) : "";  // a named card by its name in the reader's language (梟)
  let motif = "";
  if (named) {
    const m = {
      owl: `<circle cx="50" cy="72" r="22" fill="#8d6e63"/><circle cx="41" cy="66" r="8" fill="#fff"/><circle cx="59" cy="66" r="8" fill="#fff"/><circle cx="41" cy="66" r="3.5" fill="#000"/><circle cx="59" cy="66" r="3.5" fill="#000"/><path d="M46 76 L50 84 L54 76Z" fill="#f9a825"/>`,
      cat: `<path d="M30 90 V58 L36 44 L44 56 H56 L64 44 L70 58 V90Z" fill="#607d8b"/><circle cx="42" cy="68" r="3" fill="#ffeb3b"/><circle cx="58" cy="68" r="3" fill="#ffeb3b"/>`,
      house: `<path d="M28 66 L50 44 L72 66 V94 H28Z" fill="#a5d6a7" stroke="#2e7d32" stroke-width="3"/><rect x="44" y="74" width="12" height="20" fill="#2e7d32"/>`,
      horse: `<path d="M34 94 L40 62 Q44 46 60 44 L70 54 L62 58 L64 94Z" fill="#a1887f"/>`,
      man: `<circle cx="50" cy="54" r="10" fill="#90caf9"/><path d="M34 96 Q36 68 50 68 Q64 68 66 96Z" fill="#1565c0"/>`,
      fool: `<path d="M30 60 L40 44 L50 58 L60 44 L70 60Z" fill="#ab47bc"/><circle cx="50" cy="76" r="14" fill="#f3e5f5" stroke="#6a1b9a" stroke-width="3"/>`,
      lion: `<circle cx="50" cy="70" r="22" fill="#ffb74d"/><circle cx="50" cy="70" r="13" fill="#ffe0b2"/>`,
      mask: `<path d="M28 60 Q50 50 72 60 Q70 84 50 88 Q30 84 28 60Z" fill="#cfd8dc" stroke="#37474f" stroke-width="3"/><circle cx="41" cy="66" r="4" fill="#37474f"/><circle cx="59" cy="66" r="4" fill="#37474f"/>`,
      bucket: `<path d="M32 56 H68 L62 94 H38Z" fill="#8d6e63" stroke="#4e342e" stroke-width="3"/><path d="M32 56 Q50 36 68 56" fill="none" stroke="#4e342e" stroke-width="3"/>`,
    }[named[2]];
    motif = m;
  } else {
    motif = `<text x="50" y="92" font-size="${String(value).length > 2 ? 40 : 52}" text-anchor="middle" fill="${color}" font-weight="800" font-family="sans-serif">${value}</text>`;
  }
  return `<rect x="8" y="8" width="84" height="22" rx="5" fill="${color}"/>` +
    `<text x="50" y="25" font-size="15" text-anchor="middle" fill="#fff" font-weight="700" font-family="sans-serif">${label || value}</text>` +
    motif + `<text x="50" y="128" font-size="14" text-anchor="middle" fill="#555" font-family="sans-serif">${named ? value : ""}</text>`;
}

export function backSVG(width = 40, label = "") {
  const h = Math.round(width * 1.4);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="${width}" height="${h}" aria-hidden="true">` +
    `<rect x="2" y="2" width="96" height="136" rx="9" fill="#1e3a6e" stroke="#fff" stroke-width="4"/>` +
    `<path d="M14 14 H86 V126 H14Z" fill="none" stroke="#7fa7e6" stroke-width="3" stroke-dasharray="6 4"/>` +
    (label ? `<text x="50" y="84" font-size="40" text-anchor="middle" fill="#fff" font-weight="700" font-family="sans-serif">${label}</text>` : "") +
    "</svg>";
}
