"""The chat understands every model of the catalog it advises from, not only a built-in list:
the built-in catalog's own (Llama 3 8B is not one of the contract's ids) and an organisation's
models from `--catalog-dir`, by id, name or alias."""

from __future__ import annotations

import textwrap

from tui_helpers import SIZE, send, workers_done
from tui.advisor import Advisor

TEAM_MODEL = textwrap.dedent("""\
    models:
      - id: acme-assist-13b
        name: Acme Assist 13B
        aliases: [Acme Assist, acme/assist-13b-instruct]
        params_b: 13
        layers: 40
        hidden: 5120
        heads: 40
        kv_heads: 40
        head_dim: 128
        intermediate: 13824
        vocab: 32000
        max_context: 4096
        sources:
          default: test fixture - a Llama-2-13B-shaped model of an imaginary team
    """)


async def test_a_team_model_from_catalog_dir_can_be_named(make_app, tmp_path):
    (tmp_path / "models.yaml").write_text(TEAM_MODEL, encoding="utf-8")
    app = make_app(advisor=Advisor(catalog_dirs=[tmp_path]))
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(app)             # the pipeline (and its catalog) loaded
        await send(pilot, "we run acme/assist-13b-instruct")
        assert app.chat.session.interview.answers["model"] == "acme-assist-13b"
        await send(pilot, "/new")                         # a new session keeps the catalog's names
        await pilot.press("y", "enter")
        await send(pilot, "Acme Assist")
        assert app.chat.session.interview.answers["model"] == "acme-assist-13b"


async def test_a_built_in_model_outside_the_contract_list_is_understood(make_app):
    app = make_app(advisor=Advisor())
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(app)
        await send(pilot, "Meta-Llama-3-8B-Instruct")
        assert app.chat.session.interview.answers["model"] == "llama-3-8b"
