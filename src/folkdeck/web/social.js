// The table's social side: the chat, the player's own name, and the next match with the
// same seats. Chat and names are shown as text (never read as HTML); the server checks
// them (one line, 1 to 200 and 1 to 24 characters) and limits how fast a client chats.
import { t } from "./i18n.js";
import { tableStore } from "./model.js";

const $ = (id) => document.getElementById(id);
const KEPT = 50;
// The chat's lines and the line sent and not yet echoed are the store's (``chat``,
// ``chatSent``): the box keeps a line until the server shows it (a line the server refuses,
// e.g. too fast, stays there to be sent again). ``setup``: what setupSocial was given.
const setup = { send: null, tableId: null, token: null, onError: null };
const S = () => tableStore.state;
const dispatch = (event) => tableStore.dispatch(event);
const mySeat = () => S().model?.you ?? null;

/** Wires the forms: ``send`` sends a WebSocket message and says whether it could. */
export function setupSocial(options) {
  Object.assign(setup, options);
  const { send: sendMessage, tableId, token, onError } = setup;
  $("chat-form").onsubmit = (ev) => {
    ev.preventDefault();
    const text = $("chat-text").value.trim();
    if (text && sendMessage({ type: "chat", text })) dispatch({ type: "chat_sent", text });
  };
  $("name-form").onsubmit = (ev) => {
    ev.preventDefault();
    const text = $("my-name").value.trim();
    if (text && sendMessage({ type: "name", text })) {
      localStorage.setItem("folkdeck.name", text);
      $("my-name").value = "";
    }
  };
  $("rematch").onclick = async () => {
    const resp = await fetch(`/api/tables/${encodeURIComponent(tableId)}/rematch`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }) });
    const data = await resp.json();
    if (resp.ok) location.assign(data.link); else onError(data);
  };
}

/** The table's kept chat, sent first on every connection. */
export function chatLog(messages) { dispatch({ type: "chat_log", messages, kept: KEPT }); draw(); }

/** One new chat message. */
export function chatMessage(message) {
  const sent = S().chatSent;
  if (sent != null && message.seat === mySeat() && message.text === sent) {
    if ($("chat-text").value.trim() === sent) $("chat-text").value = "";
    dispatch({ type: "chat_sent", text: null });
  }
  dispatch({ type: "chat_line", message, kept: KEPT }); draw();
  const box = $("chat"); box.scrollTop = box.scrollHeight;
}

function draw() {
  const lines = S().chat;
  $("chat").replaceChildren(...lines.map((m) => {
    const li = document.createElement("li"); li.dataset.seat = m.seat;
    const who = document.createElement("strong"); who.textContent = `${m.name}: `;
    li.append(who, document.createTextNode(m.text));
    if (m.at) li.title = new Date(m.at * 1000).toLocaleTimeString();
    return li;
  }));
  $("chat-empty").hidden = lines.length > 0;
}

/** The parts that follow the table: the forms only for a seat, the next match once over. */
export function renderSocial(msg) {
  const { table } = msg;
  const seated = msg.you != null;
  $("chat-form").hidden = !seated;
  $("name-form").hidden = !seated;
  if (seated) $("my-name").placeholder = table.seats[msg.you].name;
  const next = $("next-match");
  if (table.rematch) {
    const { token } = setup;
    next.href = `/table?t=${encodeURIComponent(table.rematch)}` + (token ? `&k=${encodeURIComponent(token)}` : "");
    next.textContent = t("table.next_match");
  }
  next.hidden = !table.rematch;
  $("rematch").hidden = !(table.match_over && seated && !table.rematch);
}
