"""A second look at the messages the rules leave open: three linear models trained on
hand-written legal-aid messages in English, Hinglish and Devanagari Hindi (pure).

The rules name families ("ignore your rules", a gaali aimed at "tu"); a new writer's wording
outruns them. These models read character n-grams of the normalised clauses, which carry
over to spellings and phrasings the rules never listed. They are asked only when no rule
decided and no rule looked closely (a quoted mention or reported speech is the rules' call,
so a victim quoting abuse is never judged by a bag of n-grams), and only about chat-sized
messages (pipelines/safety/second_look.py asks them). They share one feature vector:
- `insult`: abuse aimed at the reader; a victim who reports it is spared as the rules spare
  one (pipelines/safety/reported.py, with this head as the detector);
- `injection`: prompt injection and extraction, only in a message that addresses the
  assistant (you, tum, aap, the bot): documentation that says "override" or "instructions"
  is not an attack;
- `social`: greetings, thanks and small talk, only in a short message, and a question only
  when it is about the assistant ("how are you?", not "what is bail?").

Trained by bench/train_message_models.py; thresholds in safety.yaml.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from pipelines.safety.linear import LinearTextModel, feature_slots
from pipelines.safety.normalize import Prepared

HEADS = ("insult", "injection", "social")
AMBIGUOUS = 0.5  # a head this sure half believes it: no greeting, no overruling


@dataclass(frozen=True)
class MessageModels:
    insult: LinearTextModel
    injection: LinearTextModel
    social: LinearTextModel

    def __post_init__(self) -> None:
        shapes = {(m.buckets, m.char_ngrams) for m in (self.insult, self.injection, self.social)}
        if len(shapes) != 1:
            raise ValueError("the message models must share buckets and char_ngrams")

    def slots(self, clauses: tuple[str, ...]) -> set[int]:
        """The hashed features the three heads share."""
        return feature_slots(clauses, self.insult.buckets, self.insult.char_ngrams)

    def score(self, head: str, slots: Collection[int]) -> float:
        """One head's probability (LinearTextModel.probability) for `slots`."""
        if head not in HEADS:
            raise ValueError(f"no head {head!r}")
        model: LinearTextModel = getattr(self, head)
        return model.probability_of(slots)


def head_score(models: MessageModels, head: str, prepared: Prepared) -> float:
    """One head's score for a message; the shared features are hashed once per prepared text
    (kept sorted: the weights are then read in memory order) and each head scored once."""
    key = ("message_models", id(models), head)
    score = prepared.memo.get(key)
    if isinstance(score, float):
        return score
    slots_key = ("message_models", id(models))
    slots = prepared.memo.get(slots_key)
    if not isinstance(slots, list):
        slots = prepared.memo[slots_key] = sorted(models.slots(prepared.clauses))
    score = prepared.memo[key] = models.score(head, slots)
    return score


@dataclass(frozen=True)
class MessageThresholds:
    insult: float
    injection: float
    social: float
    injection_unaddressed: float  # the injection head's bar for a message to no one in particular
    social_question: float  # the social head's bar for a message with a "?"
    social_thanks: float  # and for a thanks followed by more words (it may be a new problem)
    social_unaddressed: float  # and for a question that names no one ("free ho abhi?")
    max_words: int  # longer messages are not asked (pasted documents are the rules' work)
    min_words: int  # nor shorter ones: a word or two is too little for a bag of n-grams
    social_min_words: int  # the social head reads shorter ones ("thnks yr")
    social_max_words: int
