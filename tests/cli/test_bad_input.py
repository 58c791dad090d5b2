"""Bad input never produces a traceback: one clear line naming the file and field, exit code 2."""

import pytest


def assert_clean_error(result, *fragments):
    assert result.code == 2, (result.code, result.out, result.err)
    assert "Traceback" not in result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gpu-expert"), result.err   # one line, no usage block
    for fragment in fragments:
        assert fragment in result.err


def test_unknown_gpu(cli):
    assert_clean_error(cli("estimate", "--params-b", "7", "--gpu", "h1000"), "--gpu", "unknown gpu 'h1000'")


def test_unknown_model(cli):
    assert_clean_error(cli("estimate", "--model", "llama-9", "--gpu", "l40s"), "unknown model")


@pytest.mark.parametrize("value", ["-3", "0", "nan", "inf", "1e9", "abc"])
def test_impossible_params(cli, value):
    assert_clean_error(cli("estimate", "--params-b", value, "--gpu", "l40s"), "--params-b")


def test_malformed_yaml(cli, tmp_path):
    bad = tmp_path / "w.yaml"
    bad.write_text("model: [unclosed\n")
    assert_clean_error(cli("advise", str(bad)), str(bad), "malformed")


def test_unknown_field(cli, tmp_path):
    bad = tmp_path / "w.yaml"
    bad.write_text("model: llama-3.1-8b\nrequest_per_day: 5\n")
    assert_clean_error(cli("validate", str(bad)), str(bad), "request_per_day")


def test_negative_field(cli, tmp_path):
    bad = tmp_path / "w.yaml"
    bad.write_text("model: llama-3.1-8b\nrequests_per_day: -5\n")
    assert_clean_error(cli("advise", str(bad)), "requests_per_day")


def test_unknown_model_in_file_names_field(cli, tmp_path):
    bad = tmp_path / "w.yaml"
    bad.write_text("model: gpt-17\n")
    assert_clean_error(cli("advise", str(bad)), str(bad), "field model", "unknown model 'gpt-17'")


@pytest.mark.parametrize("content", ["", "   \n", "- a\n- b\n", "42\n"])
def test_empty_or_not_a_mapping(cli, tmp_path, content):
    bad = tmp_path / "w.yaml"
    bad.write_text(content)
    assert_clean_error(cli("audit", str(bad)), str(bad))


def test_directory_instead_of_file(cli, tmp_path):
    assert_clean_error(cli("advise", str(tmp_path)), "is a directory")


def test_missing_file(cli, tmp_path):
    assert_clean_error(cli("audit", str(tmp_path / "nope.yaml")), "file not found")


def test_unknown_rule(cli):
    assert_clean_error(cli("explain", "no-such-rule"), "unknown rule")


def test_context_beyond_model(cli):
    assert_clean_error(cli("estimate", "--model", "llama-2-7b", "--gpu", "l40s", "--context-tokens", "100000"),
                       "--context-tokens", "4096")


def test_fp8_on_gpu_without_fp8_kernels(cli, tmp_path):
    # a Volta card (no FP8 tensor cores, below FP8 Marlin's Turing floor: vLLM v0.32.0 fp8 docs) from a
    # user's own catalog directory: the A100 entry with its architecture changed
    import yaml
    from expert.catalog import load_catalog

    v100 = load_catalog().gpu("a100-80gb-sxm").model_dump(exclude_none=True)
    v100.update(id="v100-test", name="V100 test", architecture="Volta (GV100)")
    (tmp_path / "gpus.yaml").write_text(yaml.safe_dump({"gpus": [v100]}))
    result = cli("estimate", "--model", "llama-2-7b", "--gpu", "v100-test", "--precision", "fp8",
                 "--catalog-dir", str(tmp_path))
    assert_clean_error(result, "no native FP8 and no FP8 Marlin kernel")


def test_tp_must_divide_count(cli):
    assert_clean_error(cli("estimate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--count", "3", "--tp", "2"),
                       "--tp", "divisor of 3")


def test_unknown_engine(cli):
    result = cli("estimate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "tgi")
    assert result.code == 2 and "Traceback" not in result.err and "--engine" in result.err


@pytest.mark.parametrize(("argv", "line"), [
    # QA 46 #3: argparse's range and choice errors were preceded by the 3-line usage block
    (("estimate", "--batch", "0"), "gpu-expert estimate: error: argument --batch: 0 is out of range (0, 100000]"),
    (("estimate", "--rate", "-1"),
     "gpu-expert estimate: error: argument --rate: -1.0 is out of range (0, 1000000.0]"),
    (("estimate", "--recv-interval", "0"),
     "gpu-expert estimate: error: argument --recv-interval: 0 is out of range [1, 1000]"),
    (("estimate", "--kv-cache-precision", "int4"),
     "gpu-expert estimate: error: argument --kv-cache-precision: invalid choice: 'int4' "
     "(choose from 'fp32', 'bf16', 'fp16', 'fp8')"),
    (("advise",), "gpu-expert advise: error: the following arguments are required: FILE|-"),
    (("audit",), "gpu-expert audit: error: the following arguments are required: FILE|-"),
    (("cost",), "gpu-expert cost: error: the following arguments are required: --gpu"),
    (("catalog", "--format", "xml"),
     "gpu-expert catalog: error: argument --format: invalid choice: 'xml' (choose from 'text', 'json')"),
    (("chat", "--lang", "fr"),
     "gpu-expert chat: error: argument --lang: invalid choice: 'fr' (choose from 'en', 'de')"),
    (("bogus",), "gpu-expert: error: argument COMMAND: invalid choice: 'bogus' (choose from 'chat', "
     "'advise', 'audit', 'estimate', 'cost', 'rules', 'explain', 'catalog', 'validate')"),
])
def test_every_argument_error_is_one_line(cli, argv, line):
    result = cli(*argv)
    assert result.code == 2 and result.err == line + "\n", result.err
