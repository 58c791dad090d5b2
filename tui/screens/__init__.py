"""The chat screen and its modal helpers: help, cost view, resume offer."""

from .chat import ChatScreen
from .cost import CostScreen
from .help import HelpScreen
from .resume import ResumeScreen

__all__ = ["ChatScreen", "CostScreen", "HelpScreen", "ResumeScreen"]
