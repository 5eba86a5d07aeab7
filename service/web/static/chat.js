// The conversation: every untrusted string (answers, names, previews) is set as text, never HTML.

const MODES = {
  extractive: ["Extracted", "No model wrote this: these are sentences taken from the sources."],
  degraded: ["Sources only", "The model was unavailable, so here is what the sources say."],
  abstained: ["Not found", "Nothing in the knowledge base answered this closely enough."],
};

const PII_NAMES = {
  EMAIL_ADDRESS: "e-mail",
  PHONE_NUMBER: "phone",
  CREDIT_CARD: "card number",
  IBAN_CODE: "IBAN",
  IP_ADDRESS: "IP address",
  US_SSN: "social security number",
  PERSON: "name",
  STREET_ADDRESS: "address",
  DATE_OF_BIRTH: "date of birth",
  IN_AADHAAR: "Aadhaar",
  IN_PAN: "PAN",
  IN_PASSPORT: "passport",
  IN_VOTER: "voter id",
  IN_VEHICLE_REGISTRATION: "vehicle number",
  IN_BANK_ACCOUNT: "bank account",
  IN_IFSC: "IFSC code",
  IN_PIN_CODE: "PIN code",
  UPI_ID: "UPI id",
};

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

export function addUserMessage(log, text) {
  const item = el("li", "msg user");
  item.append(el("span", "visually-hidden", "You said: "), el("p", "text", text));
  log.append(item);
  item.scrollIntoView({ block: "end" });
  return item;
}

// An assistant message that grows as tokens arrive; `finish(answer)` adds what came with it.
export function addAnswer(log) {
  const item = el("li", "msg assistant");
  item.setAttribute("aria-busy", "true");
  const label = el("span", "visually-hidden", "Warden said: ");
  const text = el("p", "text");
  item.append(label, text);
  log.append(item);
  return {
    item,
    append(piece) {
      text.textContent += piece;
      item.scrollIntoView({ block: "end" });
    },
    reset() {
      text.textContent = "";
    },
    finish(answer) {
      item.removeAttribute("aria-busy");
      text.textContent = answer.response;
      decorate(item, answer);
      item.scrollIntoView({ block: "end" });
    },
    fail(message) {
      item.removeAttribute("aria-busy");
      item.classList.add("failed");
      if (!text.textContent) text.textContent = message;
      else item.append(el("p", "error", message));
    },
  };
}

// History turns carry only the text and the route.
export function addHistoryAnswer(log, turn) {
  const item = el("li", "msg assistant");
  item.append(el("span", "visually-hidden", "Warden said: "), el("p", "text", turn.content));
  if (turn.route === "reject") markRefused(item);
  log.append(item);
}

function markRefused(item) {
  item.classList.add("refused");
  item.prepend(el("span", "badge refused", "Not answered"));
}

function decorate(item, answer) {
  if (answer.route === "reject") {
    markRefused(item);
    return;
  }
  const facts = el("div", "facts");
  const mode = MODES[answer.mode];
  if (mode) {
    const badge = el("span", "badge " + answer.mode, mode[0]);
    badge.title = mode[1];
    facts.append(badge, el("span", "hint", mode[1]));
  }
  if (answer.route === "question") facts.append(confidence(answer.confidence));
  if (facts.childElementCount) item.append(facts);
  if (answer.pii_found && answer.pii_entities.length) item.append(privacyNote(answer));
  if (answer.sources && answer.sources.length) item.append(citations(answer.sources));
}

function confidence(value) {
  const percent = Math.max(0, Math.min(100, Math.round(value)));
  const box = el("span", "confidence");
  const meter = el("meter");
  meter.min = 0;
  meter.max = 100;
  meter.low = 40;
  meter.high = 70;
  meter.optimum = 100;
  meter.value = percent;
  meter.id = "m" + Math.random().toString(36).slice(2);
  const label = el("label", "", "Confidence " + percent + "%");
  label.htmlFor = meter.id;
  box.append(label, meter);
  return box;
}

// "2 items kept private: e-mail, phone": the items are the distinct placeholders in what left.
export function privacySummary(answer) {
  const placeholders = new Set((answer.safe_query || "").match(/<[A-Z][A-Z0-9_]*_\d+>/g) || []);
  const count = Math.max(placeholders.size, answer.pii_entities.length);
  const names = answer.pii_entities.map(
    (type) => PII_NAMES[type] || type.toLowerCase().replace(/_/g, " "),
  );
  return count + (count === 1 ? " item" : " items") + " kept private: " + names.join(", ");
}

function privacyNote(answer) {
  const note = el("p", "privacy", privacySummary(answer));
  note.title = "These details were masked before your question left the service, and put back here.";
  return note;
}

function citations(sources) {
  const box = el("div", "sources");
  box.append(el("p", "sources-title", sources.length === 1 ? "Source" : "Sources"));
  const list = el("ol", "citations");
  sources.forEach((source) => {
    const details = el("details", "citation");
    const page = source.page === null || source.page === undefined ? "" : ", page " + source.page;
    details.append(el("summary", "", source.source + page));
    details.append(el("p", "preview", source.preview));
    const entry = el("li");
    entry.append(details);
    list.append(entry);
  });
  box.append(list);
  return box;
}
