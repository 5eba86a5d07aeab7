"""Reported speech: a victim who quotes the abuse they received and asks for help is asking.

"My husband calls me a useless bitch, what can I do?", 'Padosi ne bola "tu harami hai", FIR
kaise karein?', "वह मुझे पागल कहता है, क्या करूँ?" hold the words of an insult, but they are
reported, not said to the reader. A flagged message is spared when:
1. it reports speech: a configured reporting cue outside the quotes ("called me", "told my
   wife", "bola ki", "keh raha tha", "ने कहा"), not said by the writer or the reader ("as I
   said: you idiot" is not reported), or words after a speaker and a colon, as in a
   transcript ('landlord: "vacate by sunday, you ..."', "husband: you are useless. me: ..."; the
   words, quoted or up to the end of the sentence, are taken out), when the speaker names a third
   party (a `speaker_nouns` word), opens with no `speaker_exclusions` word ("me", "as I said",
   "listen"), addresses no one ("bot", "you"), and the message asks;
2. it asks: a "?" outside the quotes, or a request for help ("please help", "kya karun"), or
   the writer is the one the words were said to (a `victim_words` entry in a clause with a
   cue: "they abused me saying ...", "usne mujhe ... bola", "मुझे ... कहता है"), or the words
   are in quotes next to the cue ('landlord ne bola "nikal ja kutte"', 'मालिक कहता है "..."'):
   a victim who only tells what happened is not turned away either;
3. the rest is clean: the quoted passages and, in each sentence, the clause holding the cue up
   to the end of the sentence are taken out, and what is left is detected again. Abuse said
   to the reader around the report ("fuck you, my lawyer said ...") is still refused.
A quote may also come first, before words that point back at it and name the writer as the
one it was said to, and no reader ("Idiot! Moron! That's how my father talks to me.", "randi,
kutiya, yahi bolta hai mera pati mujhe"): it is taken out when it is in quotation marks or is
epithets said to no one ("you idiot, that's how ..." is not), in its sentence or the ones just
before; what follows the pointing words is detected again, and the message counts as asking.
Words that say which third party spoke the quote before them, in their sentence or the one just
before ("you stupid woman, you will never get a rupee - my ex husband said this", "tu bewakoof
hai - ye mere senior bolte hain") take it out even when it is said to "you", if the message
names no reader once it is out.
A quote in quotation marks followed by a dash and a third party ('"you are my property ..." -
husband after drinking') is reported too. After a cue that ends in a colon, a line break or an
ellipsis, the quote runs on to the sentence that asks for help ("he sent this msg: you bitch.
i will kill you. what should i do?").
Text smuggled in invisible characters is never spared, nor a report whose reported part names
the assistant ("bot", "AI", "warden"; a "hostel warden" is no assistant), nor a message that
agrees with the abuse or likens the reader to it ("... but you are the real bitch").
"""

from __future__ import annotations

import re

from pipelines.safety.matters import asks_for_help
from pipelines.safety.mentions import NEVER_SPARED, Detector, outside_quotes
from pipelines.safety.normalize import Prepared
from pipelines.safety.quote_first import cites, names_speaker, quote_before
from pipelines.safety.rules import SafetyRules
from pipelines.safety.verdict import Verdict

_DEVANAGARI = re.compile(r"[\u0900-\u097f]")
_SENTENCES = re.compile(r"(?<=[.!?\u0964\n])")
_CLAUSES = re.compile(r"(?<=[,;:])")
_URL = re.compile(r"(?:https?://|www\.)\S+")  # "watch?v=" asks nothing
# "<speaker>: <words>" at the start of a sentence: a speaker of at most six words, a colon, then
# a quote (an ellipsis once outside_quotes has taken it out) or the rest of the sentence
_SPEAKER = re.compile(
    r"(?:^|(?<=[.!?\n\u0964\u2013\u2014]))(\s*)([^.!?\n\u0964:\u2026\u2013\u2014]{2,60}?)\s*:\s*"
    r"(\u2026|[^.!?\n\u0964\u2013\u2014]+)"
)


def spare_reported_speech(
    verdict: Verdict,
    text: str,
    rules: SafetyRules,
    detect: Detector,
    prepared: Prepared | None = None,
) -> Verdict:
    """`prepared`: the text's prepared form, when the caller has it."""
    if not verdict.flagged or any(k in r for r in verdict.reasons for k in NEVER_SPARED):
        return verdict
    compiled = rules.compiled
    quoted = outside_quotes(text)
    outside = text if quoted is None else quoted
    packs = compiled.reporting
    speaker = None
    transcript = _transcript(outside, rules)
    if transcript is not None and _asks_outright(transcript[0], rules):
        outside, speaker = transcript  # a transcript line that asks nothing is not spared
    whole = prepared if outside == text and prepared is not None else None
    words = (whole or rules.compiled.prepare(outside)).words
    cited = cites(outside, rules) if quoted is not None else None  # '"..." - my husband'
    if (speaker or cited) is None and not any(
        p.cue.search(folded := p.fold(words))
        or p.back.search(folded)
        or p.attribution.search(folded)
        for p in packs
    ):
        return verdict  # no report at all: the common case
    if any(p.agreement.search(p.fold(words)) for p in packs):
        return verdict  # "my husband calls me a bitch but you are the real bitch"
    # quoted words, and a cue outside says who said them
    asks = quoted is not None or speaker is not None or _asks_outright(outside, rules, words)
    rest: list[list[str]] = []
    unnamed = not _assistant_named(words, rules)  # "... that's how Warden talks"
    language: str | None = None
    attributed = False  # a quote said to "you", taken out by who spoke it
    pasted = False  # after "he sent this msg:", the quote runs on to a request for help
    sentences = _SENTENCES.split(outside)
    helps = [asks_for_help(rules.compiled.prepare(sentence), rules) for sentence in sentences]
    for number, sentence in enumerate(sentences):
        if pasted and not helps[number] and any(helps[number:]):
            continue  # "he sent this msg: you bitch. i will kill you. what should i do?"
        pasted = False
        if speaker is not None and sentence.strip(" .!?\n") == "\u2026":
            pasted = True  # "he sent this msg: you bitch. i will kill you. what do i do?"
        clauses = _CLAUSES.split(sentence)
        quote = quote_before(clauses, rest, rules) if unnamed else None
        if quote is not None:  # "idiot, moron - that's how my father talks to me"
            index, pointed, earlier, after, by_speaker = quote
            language, asks = language or pointed, True
            attributed = attributed or by_speaker
            del rest[len(rest) - earlier :]  # "Idiot, moron. That's how he talks to me."
            rest.append([after, *clauses[index + 1 :]])
            continue
        for index, clause in enumerate(clauses):
            found = _cue(clause, rules)
            if found:
                language = language or found
                asks = asks or _said_to_writer(clause, rules)
                pasted = _introduces(sentence, clauses[index], sentences[number + 1 :])
                clauses = clauses[:index]
                break
        rest.append(clauses)
    language = language or speaker or cited
    if language is None or not asks:  # quotes alone are mentions.py's business
        return verdict
    remainder = " ".join(clause for clauses in rest for clause in clauses)
    left = compiled.prepare(remainder)
    if detect(remainder, rules, left).flagged or _names_assistant_in_report(text, left, rules):
        return verdict
    if attributed and not compiled.addressed_words.isdisjoint(left.words.split()):
        return verdict  # "you idiot - my boss said this, and you are no better?"
    return Verdict(flagged=False, reasons=(f"abuse.{language}.reported_speech",))


def _introduces(sentence: str, clause: str, following: list[str]) -> bool:
    """The cue's clause ends with a colon, or ends its sentence with a line break or an
    ellipsis: what follows is the quote ("he sent this msg: ...", "he sent me this on
    whatsapp\n...", "he said... you are a ...")."""
    if clause.rstrip(" ").endswith(":"):
        return True
    ends = sentence.endswith(clause) and sentence.rstrip(" ").endswith(("\n", "\u2026", ".."))
    return ends or (sentence.endswith(clause) and following[:1] == ["."])


def _asks_outright(outside: str, rules: SafetyRules, words: str | None = None) -> bool:
    """A "?" outside the quotes or a request for help."""
    words = rules.compiled.prepare(outside).words if words is None else words
    packs = rules.compiled.reporting
    return "?" in _URL.sub(" ", outside) or any(p.help.search(p.fold(words)) for p in packs)


def _names_assistant_in_report(text: str, left: Prepared, rules: SafetyRules) -> bool:
    """The assistant ("bot", "AI") named in the part taken as reported: "msg aaya hai, tu
    bekaar bot hai" aims at the reader; "bot, my husband called me a slut" does not."""
    named = _assistant_named(rules.compiled.prepare(text).words, rules)
    return bool(named) and named.isdisjoint(left.words.split())


def _assistant_named(words: str, rules: SafetyRules) -> frozenset[str]:
    """The assistant's names in the words, but for look-alikes ("hostel warden")."""
    for pack in rules.compiled.reporting:
        words = pack.not_assistant.sub(" ", pack.fold(words))
    return rules.compiled.assistant_words.intersection(words.split())


def _transcript(outside: str, rules: SafetyRules) -> tuple[str, str] | None:
    """`outside` with each third-party speaker's words, and the speaker, taken out ("landlord:
    you idiot, get out by sunday.", 'सास: "..."'), and the language: the pack whose help cues
    the message uses most, else by script. None when no line has such a speaker (a
    `speaker_nouns` word, no `speaker_exclusions` word first, nobody addressed)."""
    compiled, found = rules.compiled, False

    def cut(line: re.Match[str]) -> str:
        nonlocal found
        words = compiled.prepare(line.group(2)).words.split()
        if not words or len(words) > 6 or not compiled.addressed_words.isdisjoint(words):
            return line.group(0)
        if any(pack.fold(words[0]) in pack.not_speakers for pack in compiled.reporting):
            return line.group(0)
        if not names_speaker(" ".join(words), rules):
            return line.group(0)  # "my question:", "ek baat:" name no third party
        found = True
        return line.group(1) + " \u2026 "

    taken = _SPEAKER.sub(cut, outside)
    if not found:
        return None
    message = compiled.prepare(taken).words
    hits = [len(set(pack.help.findall(pack.fold(message)))) for pack in compiled.reporting]
    if any(hits):  # the language whose help cues the message uses most
        return taken, compiled.reporting[hits.index(max(hits))].language
    return taken, "hi" if _DEVANAGARI.search(outside) else "en"


def _said_to_writer(clause: str, rules: SafetyRules) -> bool:
    words = rules.compiled.prepare(clause).words
    return any(pack.victim.search(pack.fold(words)) for pack in rules.compiled.reporting)


def _cue(clause: str, rules: SafetyRules) -> str | None:
    """The language of the first reporting cue in a clause, if any."""
    words = rules.compiled.prepare(clause).words
    for pack in rules.compiled.reporting:
        if pack.cue.search(pack.fold(words)):
            return pack.language
    return None
