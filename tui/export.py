"""The chat's `/export`: the report with the date it was written and the answers it was made from.

Markdown: a title with the date, the answers as the YAML `/save` writes (so the export can be loaded
again with `gpu-expert chat --load`), then the report. JSON: the report's JSON (as the CLI writes it)
with one more key, `exported`: the date and the answers.
"""

from __future__ import annotations

from datetime import date

from expert._plumbing.fileio import dumps_json
from expert.messages import t


def export_text(report, answers: dict, answers_yaml: str, fmt: str, lang: str, day: date) -> str:
    """The export of `report` in `fmt` (`json` or `markdown`), made on `day` from `answers`."""
    from expert.report.render import render

    if fmt == "json":
        return dumps_json({**report.model_dump(mode="json"),
                           "exported": {"date": day.isoformat(), "answers": answers}})
    head = [f"# {t('chat.export.title', lang, date=day.isoformat())}", "",
            f"## {t('chat.export.answers', lang)}", "", "```yaml", answers_yaml.rstrip("\n"), "```", ""]
    return "\n".join(head) + "\n" + render(report, "markdown")
