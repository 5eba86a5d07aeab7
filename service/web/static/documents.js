// "My documents": list with expiry, upload by picker or drop with progress, delete.

import { call, upload } from "./api.js";
import { el } from "./chat.js";

const $ = (id) => document.getElementById(id);

function expiry(iso) {
  const when = new Date(iso);
  const hours = (when.getTime() - Date.now()) / 3600000;
  const left = hours >= 1 ? Math.round(hours) + " h" : Math.max(1, Math.round(hours * 60)) + " min";
  const time = el("time", "", "expires in " + left);
  time.dateTime = when.toISOString();
  time.title = when.toLocaleString();
  return time;
}

export function createDocuments({ onUnauthorized }) {
  const list = $("docs");

  function showError(message) {
    $("docs-error").textContent = message;
    $("docs-error").hidden = !message;
  }

  function handle(error) {
    if (error.status === 401) onUnauthorized();
    else showError(error.message);
  }

  function render(documents) {
    list.replaceChildren();
    $("docs-empty").hidden = documents.length > 0;
    for (const doc of documents) {
      const item = el("li", "doc");
      const about = el("div", "doc-about");
      about.append(el("span", "doc-name", doc.name));
      const facts = el("span", "doc-facts", doc.chunks + (doc.chunks === 1 ? " passage, " : " passages, "));
      facts.append(expiry(doc.expires_at));
      about.append(facts);
      if (doc.held_back) {
        about.append(el("span", "doc-held", doc.held_back + " passage(s) held back: they held instructions for the model"));
      }
      const remove = el("button", "quiet", "Delete");
      remove.type = "button";
      remove.setAttribute("aria-label", "Delete " + doc.name);
      remove.addEventListener("click", () => removeDocument(doc, remove));
      item.append(about, remove);
      list.append(item);
    }
  }

  async function refresh() {
    try {
      render(await call("GET", "/v1/documents"));
    } catch (error) {
      handle(error);
    }
  }

  async function removeDocument(doc, button) {
    button.disabled = true;
    try {
      await call("DELETE", "/v1/documents/" + encodeURIComponent(doc.id));
      showError("");
      $("upload-status").hidden = false;
      $("upload-name").textContent = doc.name;
      $("upload-progress").hidden = true;
      $("upload-message").textContent = "deleted.";
      await refresh();
    } catch (error) {
      button.disabled = false;
      handle(error);
    }
  }

  async function sendFiles(files) {
    showError("");
    for (const file of files) {
      const status = $("upload-status");
      status.hidden = false;
      $("upload-name").textContent = file.name;
      $("upload-progress").hidden = false;
      $("upload-progress").value = 0;
      $("upload-message").textContent = "uploading…";
      try {
        const doc = await upload(file, (percent) => {
          $("upload-progress").value = percent;
          if (percent === 100) $("upload-message").textContent = "reading and indexing…";
        });
        $("upload-progress").value = 100;
        $("upload-message").textContent = "ready: " + doc.chunks + (doc.chunks === 1 ? " passage." : " passages.");
      } catch (error) {
        $("upload-progress").hidden = true;
        $("upload-message").textContent = "not uploaded.";
        handle(error);
        if (error.status === 401) return;
      }
    }
    await refresh();
  }

  const input = $("file");
  input.addEventListener("change", () => {
    const files = [...input.files];
    input.value = "";
    if (files.length) sendFiles(files);
  });
  const drop = $("drop");
  const over = (event) => {
    event.preventDefault();
    drop.classList.add("over");
  };
  drop.addEventListener("dragenter", over);
  drop.addEventListener("dragover", over);
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    const files = [...(event.dataTransfer ? event.dataTransfer.files : [])];
    if (files.length) sendFiles(files);
  });

  return { refresh, clear: () => list.replaceChildren() };
}
