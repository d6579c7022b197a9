// Who sits at a table, as people read it: a bot the table named after its kind ("greedy bot",
// the name server/create.py gives a bot seat nobody named) is shown by a person-like name of
// the page's language, one per seat (ui.bot_name.<n>: Ada, Ben...; あかり, はると...), and its
// kind and level as a badge (term.bot.<kind>, term.bot_level.<level>, falling back to the
// kind as the server spells it, so that a new bot needs no code here). Used by the table's
// seats, history, results and standings, and by the replay viewer.
import { has, t, text } from "./i18n.js";

const BOT_NAMES = 10;  // ui.bot_name.0 ... ui.bot_name.9

/** The bot kind a default bot name stands for ("greedy bot", "search:fast bot"), else null. */
export function defaultBotKind(name) {
  const m = /^(\S+) bot$/.exec(String(name || ""));
  return m ? m[1] : null;
}

/** A bot seat's shown name: a name given by whoever made the table, else a name of the page's
 * language for seat ``seat`` (distinct for every seat of a table). */
export function botName(seat, name) {
  if (defaultBotKind(name) == null) return name;
  const key = `bot_name.${seat % BOT_NAMES}`;
  const base = t(key);
  return seat >= BOT_NAMES ? `${base} ${Math.floor(seat / BOT_NAMES) + 1}` : base;
}

/** A bot's kind and level in the page's language ("search:fast": "search, fast"). */
export function botBadge(bot) {
  const [kind, level] = String(bot || "").split(":");
  const kindText = has(`term.bot.${kind}`) ? text(`term.bot.${kind}`) : kind;
  if (!level) return t("bot_badge", { kind: kindText });
  const levelText = has(`term.bot_level.${level}`) ? text(`term.bot_level.${level}`) : level;
  return t("bot_badge_level", { kind: kindText, level: levelText });
}

