"""What an evaluation returns: the firing trace, the findings and the derived facts.

Plain frozen dataclasses (cheap to build: an evaluation creates dozens of them); pydantic accepts
them as field types of report models, and `as_dict()` gives the shapes of CONTRACT.md's JSON report
(`fired_rules` entries, `findings` entries). Fact dicts are shown as the rules saw them, without the
engine's session id and serial number.
"""


from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Fact = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Firing:
    """One rule activation: the facts it matched (by alias, or fact kind) and what it derived."""

    rule_id: str
    matched: dict[str, Fact]
    derived: list[Fact] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """`{rule_id, matched, derived}`, as in the report's `fired_rules`."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class FindingSource:
    """Where a finding's knowledge comes from."""

    document: str
    section: str


@dataclass(frozen=True, slots=True)
class Finding:
    """A rule's conclusion for a person, rendered in the evaluation's language."""

    rule_id: str
    category: str
    severity: Literal["info", "warning", "critical"]
    title: str
    explanation: str
    advice: str
    source: FindingSource
    facts: dict[str, Any]
    """The matched values behind the finding, keyed `alias.field`."""

    def as_dict(self) -> dict[str, Any]:
        """The report's finding shape, `source` as `{document, section}`."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The result of one evaluation: firings in order, findings, and all derived facts."""

    lang: Literal["en", "de"]
    fired: list[Firing]
    findings: list[Finding]
    derived: list[Fact]

    def fired_ids(self) -> list[str]:
        """The rule ids in firing order (a rule may appear more than once)."""
        return [firing.rule_id for firing in self.fired]

    def as_dict(self) -> dict[str, Any]:
        """`{lang, fired, findings, derived}` as plain JSON-ready data."""
        return asdict(self)
