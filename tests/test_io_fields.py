"""The shared pydantic helpers of grimdice.io.fields."""

import pytest
from pydantic import ValidationError, field_validator

from grimdice.io.fields import StrictModel, dice_text


class M(StrictModel):
    A: int | str | None = None

    @field_validator("A")
    @classmethod
    def _a(cls, v: object) -> object:
        return dice_text(v, 0, 6, "A")


def test_dice_text_accepts_numbers_dice_and_none():
    assert M(A=3).A == 3 and M(A="D3+1").A == "D3+1" and M().A is None


@pytest.mark.parametrize("bad,needle", [("2Q", "A"), ("2D6", "within 0..6"), (-1, "within 0..6")])
def test_dice_text_rejects(bad, needle):
    with pytest.raises(ValidationError, match=needle):
        M(A=bad)


def test_strict_model_forbids_unknown_fields_and_is_frozen():
    with pytest.raises(ValidationError, match="Extra inputs"):
        M(B=1)
    m = M(A=1)
    with pytest.raises(ValidationError):
        m.A = 2
