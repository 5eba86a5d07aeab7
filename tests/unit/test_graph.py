"""The graph's shape is the one in SPEC section 1, no more and no less."""

from __future__ import annotations

from typing import get_args

import pytest

from pipelines.graph import NextAfterClassify, build_graph, route_after_classify
from pipelines.state import PipelineState

NODES = {"classify", "reject", "greet", "retrieve", "generate", "post_process"}
EDGES = {
    ("__start__", "classify", False),
    ("classify", "reject", True),
    ("classify", "greet", True),
    ("classify", "retrieve", True),
    ("reject", "__end__", False),
    ("greet", "post_process", False),
    ("retrieve", "generate", False),
    ("generate", "post_process", False),
    ("post_process", "__end__", False),
}


def test_nodes_are_exactly_the_six_of_the_spec() -> None:
    assert set(build_graph().nodes) == NODES


def test_edges_are_exactly_the_spec_and_only_classify_branches() -> None:
    drawn = build_graph().compile().get_graph()
    assert {(e.source, e.target, e.conditional) for e in drawn.edges} == EDGES


def test_the_routing_function_declares_its_targets_as_literal_node_names() -> None:
    assert set(get_args(NextAfterClassify)) == {"reject", "greet", "retrieve"}


@pytest.mark.parametrize(
    ("query_type", "target"),
    [("abusive", "reject"), ("greeting", "greet"), ("question", "retrieve")],
)
def test_route_after_classify(query_type: str, target: str) -> None:
    state: PipelineState = {"query_type": query_type}  # type: ignore[typeddict-item]
    assert route_after_classify(state) == target


def test_an_unclassified_state_goes_to_the_question_path() -> None:
    assert route_after_classify({}) == "retrieve"
