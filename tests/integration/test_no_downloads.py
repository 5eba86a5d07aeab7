"""Both real adapters, built and used in a fresh interpreter, reach for no network and no hub.

A fresh interpreter matters: the download traps fire on *first* use (tldextract fetches the
public suffix list, a hub client would fetch weights). The child process has no offline
switches set and an empty home/cache, and records every Python-level socket connect or DNS
lookup through an audit hook (which also refuses it). A control step uses tldextract's default
extractor and must be caught, proving the hook would see a download.

onnxruntime's own telemetry runs in C++ (libcurl), below the audit hook; what gives it away
is the device id it writes under ~/.cache/Microsoft, hence the empty-home check.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import json, os, sys
attempts = []

def hook(event, args):
    if event in ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname"):
        attempts.append(f"{event} {args[1] if event == 'socket.connect' else args[0]}")
        raise OSError("network refused in test")

sys.addaudithook(hook)
from service.adapters.embedding.onnx_embedder import OnnxMiniLmEmbedder
from service.adapters.pii.presidio_detector import PresidioPiiDetector

embedder = OnnxMiniLmEmbedder()
vectors = embedder.embed_sync(["How do I file an FIR?", "a second passage"])
detector = PresidioPiiDetector()
spans = detector.detect_sync("Mail asha@example.com or call +91 98765 43210")
adapters = list(attempts)
HUBS = ("huggingface_hub", "transformers")

import tldextract  # control: the library default tries the live suffix list first
tldextract.TLDExtract(cache_dir=None)("someone@example.com")
print(json.dumps({
    "adapters": adapters,
    "control": attempts[len(adapters):],
    "dims": [len(v) for v in vectors],
    "entities": [s.entity_type for s in spans],
    "ort_telemetry_off": os.environ.get("ORT_DISABLE_TELEMETRY") == "1",
    "hub_modules": sorted(m for m in sys.modules if m.split(".")[0] in HUBS),
}))
"""


def test_adapters_make_no_connection_and_touch_no_hub(tmp_path: Path) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("HF_", "TRANSFORMERS_", "TLDEXTRACT_"))
    }
    env |= {"HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["dims"] == [384, 384]
    assert report["entities"] == ["EMAIL_ADDRESS", "PHONE_NUMBER"]
    assert report["adapters"] == []
    assert report["control"], "the audit hook did not catch tldextract's default download"
    assert report["hub_modules"] == []
    assert report["ort_telemetry_off"] is True
    assert not any(tmp_path.rglob("*")), "nothing may be written to the home or cache folder"
