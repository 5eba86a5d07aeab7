"""The graph's shape is the one in SPEC section 1, no more and no less."""

from __future__ import annotations

from typing import Any, get_args

import pytest

from pipelines.graph import NextAfterClassify, build_graph, route_after_classify
from pipelines.nodes.classify import classify
from pipelines.state import Classification, PipelineState, QueryType
from tests.unit._pipeline_kit import Kit, chat_turn, kit_config, runtime, verdict
from tests.unit._safety_rules import shipped_rules

# SPEC section 1's six nodes, plus the answer gate's correction loop (issue 15):
# generate -> check_answer -> post_process | generate (retry) | degrade -> post_process
NODES = {
    "classify", "reject", "greet", "retrieve", "generate", "check_answer", "degrade",
    "post_process",
}  # fmt: skip
EDGES = {
    ("__start__", "classify", False),
    ("classify", "reject", True),
    ("classify", "greet", True),
    ("classify", "retrieve", True),
    ("reject", "__end__", False),
    ("greet", "post_process", False),
    ("retrieve", "generate", False),
    ("generate", "check_answer", False),
    ("check_answer", "post_process", True),
    ("check_answer", "generate", True),
    ("check_answer", "degrade", True),
    ("degrade", "post_process", False),
    ("post_process", "__end__", False),
}


def test_nodes_are_the_six_of_the_spec_and_the_answer_gate_loop() -> None:
    assert set(build_graph().nodes) == NODES


def test_edges_are_the_spec_and_only_classify_and_check_answer_branch() -> None:
    drawn = build_graph().compile().get_graph()
    assert {(e.source, e.target, e.conditional) for e in drawn.edges} == EDGES


def test_the_routing_function_declares_its_targets_as_literal_node_names() -> None:
    assert set(get_args(NextAfterClassify)) == {"reject", "greet", "retrieve"}


@pytest.mark.parametrize(
    ("query_type", "target"),
    [("abusive", "reject"), ("greeting", "greet"), ("question", "retrieve")],
)
def test_route_after_classify(query_type: QueryType, target: str) -> None:
    state: PipelineState = {"turn": chat_turn("anything"), "verdict": verdict(query_type)}
    assert route_after_classify(state) == target


@pytest.mark.parametrize(
    ("query", "target"),
    [("you stupid idiot", "reject"), ("good morning", "greet"), ("How do I get bail?", "retrieve")],
)
async def test_an_unclassified_state_is_classified_before_it_is_routed(
    query: str, target: str
) -> None:
    state: PipelineState = {"turn": chat_turn(query)}
    update = await classify(state, runtime(Kit().deps()))
    assert isinstance(update["verdict"], Classification)
    assert route_after_classify({**state, **update}) == target  # type: ignore[typeddict-item]


class CountingRules:
    """The shipped safety rules, counting every look at them: classifying needs at least one."""

    def __init__(self, inner: object) -> None:
        self.inner, self.looks = inner, 0

    def __getattr__(self, name: str) -> Any:
        self.looks += 1
        return getattr(self.inner, name)


async def test_an_existing_verdict_is_kept_untouched_and_never_reclassified() -> None:
    rules = CountingRules(shipped_rules())
    deps = Kit(config=kit_config(safety=rules)).deps()
    given = verdict("greeting", "greeting.hello")
    # the text alone would be refused: only the verdict already made decides the route
    state: PipelineState = {"turn": chat_turn("you stupid idiot"), "verdict": given}
    update = await classify(state, runtime(deps))
    assert update == {} and rules.looks == 0
    assert state["verdict"] is given
    assert route_after_classify({**state, **update}) == "greet"  # type: ignore[typeddict-item]
    # the probe works: the same node, without a verdict, does consult the rules
    fresh = await classify({"turn": chat_turn("you stupid idiot")}, runtime(deps))
    assert fresh["verdict"].query_type == "abusive" and rules.looks > 0
