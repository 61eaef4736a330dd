"""Parquet input (C6): ``thinkparse --column NAME FILE.parquet`` splits one text column, batch by
batch, in bounded memory (pyarrow, ``thinkparse[arrow]``).

* Each row's text goes through the same call as a text input (``split_think`` with the text
  options, ``"auto"`` by default; ``parse`` under ``--format reasoning-block``); a null row gives
  null results.
* ``--output FILE.parquet``: the input's columns plus ``NAME__visible`` and ``NAME__reasoning``
  (strings, null where the input was null or had no reasoning), row groups written as they are
  read.  A name clash with an existing column is a usage error.
* ``--html``: one card per non-null row, named ``FILE:ROW`` (0-based).
* Otherwise JSON Lines on the output, one object per row: ``file`` (several files), the ``--key``
  column when given, ``visible``, ``reasoning``, ``tokens_est`` (``null`` fields for a null row).
* Without pyarrow: exit 2, "install thinkparse[arrow]".  Without ``--column``: exit 2.
"""

from __future__ import annotations

from typing import Any

from ... import parse, split_think
from .._common import InputError, UsageError
from .._output import Context, encode_json, tokens_est

_BATCH_ROWS = 4096


def _pyarrow() -> tuple[Any, Any]:
    try:
        import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]
        import pyarrow.parquet as pq  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        raise UsageError("Parquet input needs pyarrow: pip install 'thinkparse[arrow]'") from None
    return pa, pq


def run_parquet(ctx: Context, name: str) -> None:
    """One Parquet input; problems with the file are reported and the run goes on."""
    args = ctx.args
    column = args.column
    if column is None:
        raise UsageError("Parquet input needs --column NAME (the text column)")
    pa, pq = _pyarrow()
    try:
        source = pq.ParquetFile(name)
    except OSError as exc:
        raise InputError(f"{name}: cannot open: {exc}", 2) from None
    except Exception as exc:  # pyarrow's ArrowInvalid and friends: not a Parquet file
        raise InputError(f"{name}: not a Parquet file ({exc})") from None
    schema = source.schema_arrow
    if column not in schema.names:
        raise InputError(f"{name}: no column {column!r} (columns: {', '.join(schema.names)})", 2)
    if not (
        pa.types.is_string(schema.field(column).type)
        or pa.types.is_large_string(schema.field(column).type)
    ):
        raise InputError(f"{name}: column {column!r} is {schema.field(column).type}, not text", 2)
    key = args.key
    if key is not None and key not in schema.names:
        raise InputError(f"{name}: no --key column {key!r}", 2)
    writer = None
    out_path = args.output if args.output and args.output.lower().endswith(".parquet") else None
    if out_path is not None:
        extra = (f"{column}__visible", f"{column}__reasoning")
        clash = [n for n in extra if n in schema.names]
        if clash:
            raise UsageError(f"{name}: the output column {clash[0]!r} already exists")
        out_schema = schema.append(pa.field(extra[0], pa.string())).append(
            pa.field(extra[1], pa.string())
        )
        writer = pq.ParquetWriter(out_path, out_schema)
    split = _splitter(ctx)
    head = "{" if not ctx.settings.multi else '{"file": ' + encode_json(name) + ", "
    try:
        row = 0
        for batch in source.iter_batches(batch_size=_BATCH_ROWS):
            texts = batch.column(column).to_pylist()
            results = [None if t is None else split(t) for t in texts]
            row += len(results)
            if ctx.pages is not None:  # --html: one card per non-null row, named FILE:ROW
                first = row - len(results)
                for i, r in enumerate(results):
                    if r is not None:
                        ctx.pages.append((f"{name}:{first + i}", r))
                continue
            if writer is not None:
                visible = pa.array([None if r is None else r.visible for r in results], pa.string())
                reasoning = pa.array(
                    [None if r is None else r.reasoning for r in results], pa.string()
                )
                table = pa.Table.from_batches([batch]).append_column(extra[0], visible)
                writer.write_table(table.append_column(extra[1], reasoning))
                continue
            keys = batch.column(key).to_pylist() if key is not None else None
            lines = []
            for i, r in enumerate(results):
                start = (
                    head if keys is None else f"{head}{encode_json(key)}: {encode_json(keys[i])}, "
                )
                if r is None:
                    lines.append(
                        f'{start}"visible": null, "reasoning": null, "tokens_est": null}}\n'
                    )
                else:
                    lines.append(
                        f'{start}"visible": {encode_json(r.visible)}, "reasoning": '
                        f'{encode_json(r.reasoning)}, "tokens_est": {tokens_est(r)}}}\n'
                    )
            ctx.stdout.write("".join(lines))
    finally:
        if writer is not None:
            writer.close()
    ctx.stdout.flush()


def _splitter(ctx: Context) -> Any:
    options = ctx.settings.text_options
    if ctx.args.format == "reasoning-block":
        redact = not getattr(ctx.args, "no_redact", False)
        return lambda text: parse(text, redact=redact)
    return lambda text: split_think(text, **options)
