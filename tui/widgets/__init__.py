"""One small widget per bubble kind of the chat log, plus the sentence panel and the answer view."""

from .answer import AnswerView
from .bubbles import ChangeBubble, QuestionBubble, ReplyBubble, UserBubble
from .cards import RuleCard, TraceCard
from .cost_chart import CostChart, CostSummary
from .findings import FindingList
from .plans import PlanCard
from .recommendation import AlternativesList, RecommendationCard
from .sentence import SentencePanel

__all__ = ["AlternativesList", "AnswerView", "ChangeBubble", "CostChart", "CostSummary", "FindingList", "PlanCard",
           "QuestionBubble", "RecommendationCard", "ReplyBubble", "RuleCard", "SentencePanel",
           "TraceCard", "UserBubble"]
