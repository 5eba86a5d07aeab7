"""The toxicity scorer: alt-profanity-check's shipped model, evaluated without sklearn."""
