// The public /v1 API, same origin only. The token lives in this tab's sessionStorage.

const TOKEN_KEY = "warden.token";

export class ApiError extends Error {
  constructor(status, code, detail) {
    super(detail);
    this.status = status;
    this.code = code;
  }
}

const FRIENDLY = {
  upload_too_large: "The file is too large.",
  document_too_large: "The document is too large.",
  too_many_chunks: "The document is too long.",
  unsupported_type: "This type of file is not supported. Use PDF, Word (.docx), text or Markdown.",
  corrupt_document: "The file could not be read: it looks damaged.",
  too_many_documents: "You have reached the limit of documents. Delete one first.",
  rate_limited: "Too many requests. Wait a minute and try again.",
  message_too_large: "The message is too long.",
  invalid_credentials: "The e-mail or password is not right.",
  signup_disabled: "New accounts cannot be created here.",
};

// Upload refusals whose server detail adds something (the limit, what could not be read).
const WITH_DETAIL = new Set(["upload_too_large", "document_too_large", "too_many_chunks", "corrupt_document"]);

export function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

// The token's claims, for display only (the server reads identity from the token itself).
export function tokenClaims() {
  const value = token();
  try {
    const part = value.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(part), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return {};
  }
}

async function errorOf(response) {
  let code = "http_" + response.status;
  let detail = "";
  try {
    const body = await response.json();
    code = body.error || code;
    detail = typeof body.detail === "string" ? body.detail : "";
  } catch {
    // not JSON: keep the status
  }
  return new ApiError(response.status, code, describe(code, detail, response.status));
}

export function describe(code, detail, status) {
  if (FRIENDLY[code]) return WITH_DETAIL.has(code) && detail ? FRIENDLY[code] + " " + detail : FRIENDLY[code];
  if (detail) return detail;
  if (status >= 500) return "The service had a problem. Try again in a moment.";
  return "The request failed (" + status + ").";
}

function authHeaders(extra = {}) {
  const value = token();
  return value ? { ...extra, Authorization: "Bearer " + value } : extra;
}

export async function call(method, path, body) {
  const headers = authHeaders(body === undefined ? {} : { "Content-Type": "application/json" });
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
    });
  } catch {
    throw new ApiError(0, "network", "The service cannot be reached. Check your connection.");
  }
  if (!response.ok) throw await errorOf(response);
  return response.status === 204 ? null : response.json();
}

export async function signIn(email, password) {
  const form = new URLSearchParams({ username: email, password });
  let response;
  try {
    response = await fetch("/v1/auth/token", { method: "POST", body: form, credentials: "omit" });
  } catch {
    throw new ApiError(0, "network", "The service cannot be reached. Check your connection.");
  }
  if (!response.ok) throw await errorOf(response);
  setToken((await response.json()).access_token);
}

export async function signUp(email, password, name) {
  await call("POST", "/v1/auth/register", { email, password, name });
  await signIn(email, password);
}

// POST /v1/chat/stream: calls onEvent(name, data) for each server-sent event.
export async function streamChat(message, onEvent) {
  let response;
  try {
    response = await fetch("/v1/chat/stream", {
      method: "POST",
      headers: authHeaders({ "Content-Type": "application/json", Accept: "text/event-stream" }),
      body: JSON.stringify({ message }),
      credentials: "omit",
    });
  } catch {
    throw new ApiError(0, "network", "The service cannot be reached. Check your connection.");
  }
  if (!response.ok) throw await errorOf(response);
  onEvent("open", null);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      dispatch(buffer.slice(0, end), onEvent);
      buffer = buffer.slice(end + 2);
    }
  }
  if (buffer.trim()) dispatch(buffer, onEvent);
}

function dispatch(block, onEvent) {
  let name = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
  }
  if (!data.length) return;
  let parsed;
  try {
    parsed = JSON.parse(data.join("\n"));
  } catch {
    return;
  }
  onEvent(name, parsed);
}

// POST /v1/documents with upload progress (fetch cannot report it).
export function upload(file, onProgress) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/v1/documents");
    const value = token();
    if (value) request.setRequestHeader("Authorization", "Bearer " + value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((100 * event.loaded) / event.total));
    };
    request.onerror = () =>
      reject(new ApiError(0, "network", "The upload was interrupted. Check your connection."));
    request.onload = () => {
      let body = {};
      try {
        body = JSON.parse(request.responseText);
      } catch {
        // keep the status
      }
      if (request.status >= 200 && request.status < 300) resolve(body);
      else {
        const code = body.error || "http_" + request.status;
        const detail = typeof body.detail === "string" ? body.detail : "";
        reject(new ApiError(request.status, code, describe(code, detail, request.status)));
      }
    };
    const form = new FormData();
    form.append("file", file);
    request.send(form);
  });
}
