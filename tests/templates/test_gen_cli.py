"""`gpusim gen --list` names every template family and `gpusim gen FAMILY --help` explains each parameter.

Parametrised over the registry, so a new family is covered as soon as it registers.
"""
from __future__ import annotations

import pytest

from gpusim.cli import main
from gpusim.templates import templates

FAMILIES = sorted(templates())


def test_list_names_every_family_with_its_summary(capsys):
    assert main(["gen", "--list"]) == 0
    out = capsys.readouterr().out
    for name, t in templates().items():
        assert name in out and t.summary.split()[0] in out, name


@pytest.mark.parametrize("family", FAMILIES)
def test_help_explains_every_parameter_and_its_default(family, capsys):
    with pytest.raises(SystemExit) as info:
        main(["gen", family, "--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    words = " ".join(text.split())
    about = " ".join(templates()[family].about.split()[:8])
    assert about and about in words  # the family's explanation, not only its flags
    for p in templates()[family].params:
        assert f"--{p.name}" in text, p.name
        if p.default is not None and p.kind != "bool":
            assert f"(default: {p.default})" in words, p.name
        for choice in p.choices or ():
            assert str(choice) in text, (p.name, choice)
