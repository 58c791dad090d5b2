"""The state of one chat: the interview (advice) or a setup (audit), saved and restored as YAML.

`/save` writes exactly the workload or setup file the CLI accepts; the autosave file is the same
YAML with one leading comment line recording the language and the questions already asked, so a
crash or an accidental quit loses nothing. No Textual here.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import yaml

from expert.interview import Interview

AUTOSAVE_NAME = "autosave.yaml"
_META = re.compile(r"^# gpu-expert session: lang=(en|de)(?: mode=(advice|audit))? asked=([\w,]*)\s*$",
                   re.MULTILINE)


def saved_lang(text: str) -> str | None:
    """The language an autosave's comment line records (`lang=de`), None without one."""
    meta = _META.search(text)
    return meta.group(1) if meta else None


def state_dir() -> Path:
    """`$GPU_EXPERT_STATE_DIR`, else `$XDG_STATE_HOME/gpu-expert`, else `~/.local/state/gpu-expert`."""
    if os.environ.get("GPU_EXPERT_STATE_DIR"):
        return Path(os.environ["GPU_EXPERT_STATE_DIR"])
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / "gpu-expert"


def is_setup(data: dict) -> bool:
    """A setup file names a `gpu`; a workload file names a `model` or `params_b`."""
    return "gpu" in data and "model" not in data and "params_b" not in data


class Session:
    """One chat's answers: `mode` is `advice` (an `Interview` of the workload) or `audit` (a
    `SetupInterview` of an existing setup, answered or loaded from a file)."""

    def __init__(self, lang: str = "en", models: dict[str, str] | None = None,
                 gpus: dict[str, str] | None = None) -> None:
        self.lang = "de" if lang == "de" else "en"
        self.models, self.gpus = models, gpus
        """The model and GPU names the interviews understand (the catalog's, once loaded; else
        the built-in lists)."""
        self.interview = Interview(self.lang, models)
        """An `Interview` (advice) or a `SetupInterview` (audit; imported on first use)."""
        self.mode = "advice"
        self.lang_fixed = True
        """False while the first answer may still switch the language (`--lang` not given)."""
        self.source: str | None = None
        """The file the setup came from (audit), for messages."""

    def start_audit(self) -> None:
        """Switch to the audit interview (its first question is the GPU)."""
        from expert.interview.setup_flow import SetupInterview

        self.mode = "audit"
        self.interview = SetupInterview(self.lang, self.models, self.gpus)

    @property
    def setup(self) -> dict:
        """The setup mapping (audit); empty in advice mode."""
        return self.interview.setup() if self.mode == "audit" else {}

    @setup.setter
    def setup(self, mapping: dict) -> None:
        self.interview.replace(mapping)

    def use_names(self, models: dict[str, str] | None, gpus: dict[str, str] | None) -> None:
        """Understand these model and GPU names (alias → catalog id) from now on."""
        self.models, self.gpus = models or self.models, gpus or self.gpus
        self.interview.models = self.models or self.interview.models
        if self.mode == "audit" and self.gpus:
            self.interview.gpus = self.gpus

    def set_lang(self, lang: str) -> None:
        """Switch the language of the questions, the sentence and the report."""
        self.lang = "de" if lang == "de" else "en"
        self.lang_fixed = True
        self.interview.lang = self.lang

    @property
    def complete(self) -> bool:
        """True when no question is left."""
        return self.interview.next_question() is None

    def data(self) -> dict:
        """The workload (advice) or setup (audit) mapping, as the CLI reads it."""
        return self.interview.setup() if self.mode == "audit" else self.interview.workload()

    def to_yaml(self, meta: bool = False) -> str:
        """The YAML file text; `meta` adds the autosave comment line (language, questions asked)."""
        text = yaml.safe_dump(self.data(), sort_keys=False, allow_unicode=True)
        if meta:
            asked = ",".join(sorted(self.interview.done))
            text = f"# gpu-expert session: lang={self.lang} mode={self.mode} asked={asked}\n" + text
        return text

    def save(self, path: str | Path, meta: bool = False) -> Path:
        """Write the YAML to `path` (LF line endings, UTF-8); return the path."""
        path = Path(path).expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_yaml(meta), encoding="utf-8", newline="\n")
        return path

    def load(self, data: dict, text: str = "", complete: bool = True) -> None:
        """Take a workload or setup mapping; `complete` marks every question as asked (a saved file).

        An autosave comment in `text` restores the language, the mode (a half-answered audit has
        no `gpu` yet after `/unset gpu`) and exactly the questions asked. Raises ValueError for
        fields the mode does not know.
        """
        meta = _META.search(text)
        if meta:
            self.set_lang(meta.group(1))
        if meta and meta.group(2) == "audit" or not (meta and meta.group(2)) and is_setup(data):
            from expert.interview.setup_questions import SETUP_ORDER as order

            self.start_audit()
            self.interview.replace(data)
        else:
            self.mode = "advice"
            self.interview = Interview(self.lang, self.models)
            for name, value in data.items():
                self.interview.set(name, value)
            from expert.interview.questions import ORDER as order
        if meta:
            self.interview.done.update(q for q in meta.group(3).split(",") if q)
        elif complete:
            self.interview.done.update(order)


def autosave_path() -> Path:
    """Where answers are saved as they are given."""
    return state_dir() / AUTOSAVE_NAME


def read_autosave() -> tuple[dict, str] | None:
    """(mapping, text) of the autosave file, or None when there is none or it is unreadable."""
    from expert.errors import InputError
    from expert._plumbing.fileio import parse_document, read_text

    path = autosave_path()
    if not path.exists():
        return None
    try:  # the inputs' reader: a named pipe or a device put there is not waited on
        name, text = read_text(path)
        data = parse_document(text, name)
    except InputError:
        return None
    return (data, text) if isinstance(data, dict) and data else None
