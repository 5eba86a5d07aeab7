// Wiring: sign in or up, the two views, sending a message, history after a reload.

import { call, setToken, signIn, signUp, streamChat, token, tokenClaims } from "./api.js";
import { addAnswer, addHistoryAnswer, addUserMessage } from "./chat.js";
import { createDocuments } from "./documents.js";

const $ = (id) => document.getElementById(id);
const DRAFT_KEY = "warden.draft";
const state = { signingUp: false, view: "chat", sending: false, user: null };

const documents = createDocuments({ onUnauthorized: () => expired() });

function show(view) {
  state.view = view;
  $("chat-view").hidden = view !== "chat";
  $("docs-view").hidden = view !== "docs";
  for (const [id, name] of [["show-chat", "chat"], ["show-docs", "docs"]]) {
    if (name === view) $(id).setAttribute("aria-current", "page");
    else $(id).removeAttribute("aria-current");
  }
  if (view === "docs") documents.refresh();
}

function signedIn() {
  $("auth-view").hidden = true;
  $("nav").hidden = false;
  const name = tokenClaims().name;
  $("who").textContent = name ? "Signed in as " + name : "";
  show(state.view);
  if (state.view === "chat") $("message").focus();
}

function askToSignIn(notice) {
  $("nav").hidden = true;
  $("chat-view").hidden = true;
  $("docs-view").hidden = true;
  $("auth-view").hidden = false;
  $("auth-notice").textContent = notice || "";
  $("auth-notice").hidden = !notice;
  setMode(false);
  (notice && $("auth-email").value ? $("auth-password") : $("auth-email")).focus();
}

// A 401 anywhere: the token expired or was revoked. The typed draft stays where it is.
function expired() {
  setToken(null);
  $("auth-password").value = "";
  askToSignIn("Your session has expired. Please sign in again; your message has been kept.");
}

function setMode(signingUp) {
  state.signingUp = signingUp;
  $("auth-title").textContent = signingUp ? "Create an account" : "Sign in";
  $("auth-submit").textContent = signingUp ? "Create account" : "Sign in";
  $("auth-switch").textContent = signingUp ? "Have an account? Sign in" : "New here? Create an account";
  $("name-row").hidden = !signingUp;
  $("auth-password").autocomplete = signingUp ? "new-password" : "current-password";
  $("auth-error").hidden = true;
}

$("auth-switch").addEventListener("click", () => {
  setMode(!state.signingUp);
  $("auth-email").focus();
});

$("auth-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const email = $("auth-email").value.trim();
  const password = $("auth-password").value;
  const name = $("auth-name").value.trim();
  const problem = !email.includes("@")
    ? "Enter your e-mail address."
    : password.length < 8
      ? "The password needs at least 8 characters."
      : state.signingUp && !name
        ? "Enter your name."
        : "";
  if (problem) return authError(problem);
  $("auth-submit").disabled = true;
  try {
    if (state.signingUp) await signUp(email, password, name);
    else await signIn(email, password);
    $("auth-password").value = "";
    $("auth-notice").hidden = true;
    const sameUser = state.user !== null && state.user === tokenClaims().sub;
    signedIn();
    if (!sameUser) await loadHistory(); // after an expiry, the same person's page stays as it was
  } catch (error) {
    authError(error.message);
  } finally {
    $("auth-submit").disabled = false;
  }
});

function authError(message) {
  $("auth-error").textContent = message;
  $("auth-error").hidden = false;
}

async function loadHistory() {
  state.user = tokenClaims().sub || null;
  try {
    const page = await call("GET", "/v1/chat/history?limit=50");
    const log = $("log");
    log.replaceChildren();
    for (const turn of page.messages) {
      if (turn.role === "user") addUserMessage(log, turn.content);
      else addHistoryAnswer(log, turn);
    }
    $("chat-intro").hidden = page.messages.length > 0;
    if (log.lastElementChild) log.lastElementChild.scrollIntoView({ block: "end" });
  } catch (error) {
    if (error.status === 401) expired();
    else chatError(error.message);
  }
}

function chatError(message) {
  $("chat-error").textContent = message;
  $("chat-error").hidden = !message;
}

async function send() {
  const box = $("message");
  const message = box.value.trim();
  if (!message || state.sending) return;
  state.sending = true;
  $("send").disabled = true;
  chatError("");
  let answer = null;
  let done = false;
  try {
    await streamChat(message, (name, data) => {
      if (name === "open") {
        // accepted: only now is the draft cleared (a 401 before this keeps it)
        addUserMessage($("log"), message);
        $("chat-intro").hidden = true;
        box.value = "";
        sessionStorage.removeItem(DRAFT_KEY);
        answer = addAnswer($("log"));
      } else if (name === "token") answer.append(data.text);
      else if (name === "reset") answer.reset();
      else if (name === "done") {
        done = true;
        answer.finish(data);
      } else if (name === "error") {
        done = true;
        answer.fail("Something went wrong on our side. Please try again.");
      }
    });
    if (answer && !done) answer.fail("The answer was interrupted. Please ask again.");
  } catch (error) {
    if (error.status === 401) expired();
    else if (answer) answer.fail(error.message);
    else chatError(error.message);
  } finally {
    state.sending = false;
    $("send").disabled = false;
  }
}

$("composer").addEventListener("submit", (event) => {
  event.preventDefault();
  send();
});
$("message").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    send();
  }
});
$("message").addEventListener("input", () => sessionStorage.setItem(DRAFT_KEY, $("message").value));

$("show-chat").addEventListener("click", () => show("chat"));
$("show-docs").addEventListener("click", () => show("docs"));
$("sign-out").addEventListener("click", () => {
  setToken(null);
  sessionStorage.removeItem(DRAFT_KEY);
  $("message").value = "";
  $("log").replaceChildren();
  $("chat-intro").hidden = false;
  state.user = null;
  documents.clear();
  state.view = "chat";
  askToSignIn("You have signed out.");
});

// A file dropped outside the drop zone must not replace the page.
for (const type of ["dragover", "drop"]) {
  window.addEventListener(type, (event) => event.preventDefault());
}

$("message").value = sessionStorage.getItem(DRAFT_KEY) || "";
if (token()) {
  signedIn();
  loadHistory();
} else {
  askToSignIn("");
}
