"""The request graph (SPEC section 1). `build_graph()` is uncompiled: compile once at startup."""

from __future__ import annotations

from typing import Literal

from langgraph.graph import END, START, StateGraph

from pipelines.deps import PipelineDeps
from pipelines.nodes.check_answer import check_answer, route_after_check
from pipelines.nodes.classify import classify
from pipelines.nodes.degrade import degrade
from pipelines.nodes.generate import generate
from pipelines.nodes.greet import greet
from pipelines.nodes.post_process import post_process
from pipelines.nodes.reject import reject
from pipelines.nodes.retrieve import retrieve
from pipelines.state import PipelineState

NextAfterClassify = Literal["reject", "greet", "retrieve"]


def route_after_classify(state: PipelineState) -> NextAfterClassify:
    """abusive -> reject, greeting -> greet, anything else -> retrieve."""
    query_type = state["verdict"].query_type
    if query_type == "abusive":
        return "reject"
    if query_type == "greeting":
        return "greet"
    return "retrieve"


def build_graph() -> StateGraph[PipelineState, PipelineDeps, PipelineState, PipelineState]:
    graph = StateGraph(PipelineState, context_schema=PipelineDeps)
    graph.add_node("classify", classify)
    graph.add_node("reject", reject)
    graph.add_node("greet", greet)
    graph.add_node("retrieve", retrieve)
    graph.add_node("generate", generate)
    graph.add_node("check_answer", check_answer)
    graph.add_node("degrade", degrade)
    graph.add_node("post_process", post_process)

    graph.add_edge(START, "classify")
    graph.add_conditional_edges("classify", route_after_classify)
    graph.add_edge("reject", END)
    graph.add_edge("greet", "post_process")
    graph.add_edge("retrieve", "generate")
    graph.add_edge("generate", "check_answer")
    # the correction loop: pass -> post_process, refused -> generate again, at the cap -> degrade
    graph.add_conditional_edges("check_answer", route_after_check)
    graph.add_edge("degrade", "post_process")
    graph.add_edge("post_process", END)
    return graph


def mermaid() -> str:
    """The compiled graph drawn by LangGraph as Mermaid (the README's flow diagram)."""
    return build_graph().compile().get_graph().draw_mermaid()
