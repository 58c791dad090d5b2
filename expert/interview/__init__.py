"""The chat interview without a UI: free-text understanding (English and German) and question flow.

- `parse`: one parser per question (`parse_model`, `parse_volume`, `parse_fine_tuning`, `parse_data`,
  and the follow-ups); each returns a `Parsed` with workload fields of CONTRACT.md and never raises.
- `sentence`: the whole clarification sentence of document 000, read in one go; `render` writes it back.
- `flow`: `Interview`, the pure interview state (`next_question`, `answer`, `set`, `workload`):
  `answer(line)` is the one entry that understands a chat line — an answer, a correction of the
  previous one, a confirmation, a change after the interview — and says for which question
  (`Reply`); `turns` holds the lines that are not a plain answer.
- `polarity`: negation, correction and confirmation words (lexicon data, English and German);
  `whatif`: a change in plain words after the interview; `rates`: peak or average of a rate.
- `questions`: the questions with examples and help, in English or German.

Every word shown comes from the message catalog `expert.messages` (`question.*`, `interview.*`);
the words recognised in what the user types stay here (`lexicon`, `aliases`).
"""

from __future__ import annotations

from expert._plumbing.lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(('CONTRACT_MODEL_IDS', 'DEFAULT_MODEL_ALIASES', 'build_aliases'), 'aliases'),
    **dict.fromkeys(('describe',), 'workload_describe'),
    **dict.fromkeys(('Interview', 'Reply'), 'flow'),
    **dict.fromkeys(('parse_budget', 'parse_context', 'parse_data', 'parse_deployment', 'parse_fine_tuning',
                     'parse_growth', 'parse_horizon', 'parse_hosting', 'parse_latency', 'parse_model', 'parse_sector',
                     'parse_volume', 'parse_yes_no'), 'parse'),
    **dict.fromkeys(('ORDER', 'Question', 'question'), 'questions'),
    **dict.fromkeys(('Parsed',), 'result'),
    **dict.fromkeys(('parse_sentence',), 'sentence'),
    **dict.fromkeys(('render_sentence',), 'render'),
}

__all__ = [
    "CONTRACT_MODEL_IDS", "DEFAULT_MODEL_ALIASES", "Interview", "ORDER", "Parsed", "Question", "Reply",
    "build_aliases", "describe", "parse_budget", "parse_context", "parse_data", "parse_deployment",
    "parse_fine_tuning", "parse_growth", "parse_horizon", "parse_hosting", "parse_latency",
    "parse_model", "parse_sector", "parse_sentence", "parse_volume", "parse_yes_no", "question",
    "render_sentence",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
