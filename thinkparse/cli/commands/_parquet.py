"""Parquet input (C6): ``thinkparse --column NAME FILE.parquet`` splits one text column, batch by
batch, in bounded memory (pyarrow, ``thinkparse[arrow]``).

* Each row's text is read as a text file is (:func:`._textfile.text_reader`): harmony markup
  (P3) with ``split_harmony``, ``<REASONING>`` with ``parse`` (redacted unless
  ``--no-redact``, R7), anything else with ``split_think`` and the text options (``"auto"`` by
  default); scanner options or ``--format think`` make every row ``split_think``, ``--format
  reasoning-block`` ``parse``.  A null row gives null results.
* ``--output FILE.parquet``: the input's columns plus ``NAME__visible`` and ``NAME__reasoning``
  (strings, null where the input was null or had no reasoning), row groups written as they are
  read.  A name clash with an existing column is a usage error, and so is an output that cannot
  be opened (a missing directory); a write that fails (a full device) is exit 1.
* ``--html``: one card per non-null row, named ``FILE:ROW`` (0-based).
* Otherwise JSON Lines on the output, one object per row: ``file`` (several files), the key
  column, ``visible``, ``reasoning``, ``tokens_est`` (``null`` fields for a null row).  The key
  is the ``--key`` column, else the ``id`` column when the table has one (as a JSON Lines
  record's ``id`` is copied).  ``--reasoning`` keeps only the key and ``reasoning`` (as for JSON
  Lines input); ``--reasoning-to-stderr`` also writes each row's reasoning to standard error.
* Without pyarrow: exit 2, "install thinkparse[arrow]".  Without ``--column``: exit 2.
"""

from __future__ import annotations

import io
from typing import IO, Any, Optional

from .._common import InputError, OutputError, UsageError
from .._output import Context, encode_json, tokens_est, with_newline
from ._textfile import text_reader

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
    if key is None and "id" in schema.names:
        key = "id"  # copied as a JSON Lines record's id is
    writer = None
    out_file: Optional[_OutputFile] = None
    out_path = args.output if args.output and args.output.lower().endswith(".parquet") else None
    if out_path is not None:
        extra = (f"{column}__visible", f"{column}__reasoning")
        clash = [n for n in extra if n in schema.names]
        if clash:
            raise UsageError(f"{name}: the output column {clash[0]!r} already exists")
        out_schema = schema.append(pa.field(extra[0], pa.string())).append(
            pa.field(extra[1], pa.string())
        )
        try:
            out_file = _OutputFile(open(out_path, "wb"))  # noqa: SIM115 - closed below
        except OSError as exc:
            raise UsageError(
                f"cannot open the output file {out_path}: {exc.strerror or exc}"
            ) from None
        writer = pq.ParquetWriter(out_file, out_schema)
    try:
        _rows(ctx, name, source, column, key, writer, extra if writer is not None else ())
    finally:
        try:
            if writer is not None:
                writer.close()
        finally:
            if out_file is not None:
                out_file.close_file()
    ctx.stdout.flush()


class _OutputFile(io.RawIOBase):
    """The Parquet output file as pyarrow writes it: a failed write (a full device) is an
    ``OutputError`` (exit 1), told apart from an error reading the input."""

    def __init__(self, file: IO[bytes]) -> None:
        super().__init__()
        self.file = file

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        try:
            self.file.write(data)
        except OSError as exc:
            raise OutputError(f"cannot write the output: {exc.strerror or exc}") from None
        return len(data)

    def flush(self) -> None:
        try:
            self.file.flush()
        except OSError as exc:
            raise OutputError(f"cannot write the output: {exc.strerror or exc}") from None

    def close_file(self) -> None:
        """Flush and close the file; an error doing either is an ``OutputError``."""
        error: Optional[OSError] = None
        for step in (self.file.flush, self.file.close):
            try:
                step()
            except OSError as exc:
                error = error or exc
        if error is not None:
            raise OutputError(f"cannot write the output: {error.strerror or error}")


def _rows(
    ctx: Context, name: str, source: Any, column: str, key: Optional[str], writer: Any,
    extra: tuple[str, ...],
) -> None:
    """Every batch of rows: split, then written to the Parquet output, the page or JSON Lines."""
    pa, _ = _pyarrow()
    args = ctx.args
    split = _splitter(ctx)
    only_reasoning = bool(args.reasoning)
    to_stderr = bool(args.reasoning_to_stderr)
    head = "{" if not ctx.settings.multi else '{"file": ' + encode_json(name) + ", "
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
        lines: list[str] = []
        for i, r in enumerate(results):
            start = (
                head if keys is None else f"{head}{encode_json(key)}: {encode_json(keys[i])}, "
            )
            if r is not None and to_stderr and r.reasoning:
                ctx.stdout.write("".join(lines))
                lines = []
                ctx.stdout.flush()
                ctx.console.reasoning(with_newline(r.reasoning))
            if only_reasoning:
                r_json = "null" if r is None else encode_json(r.reasoning)
                lines.append(f'{start}"reasoning": {r_json}}}\n')
            elif r is None:
                lines.append(
                    f'{start}"visible": null, "reasoning": null, "tokens_est": null}}\n'
                )
            else:
                lines.append(
                    f'{start}"visible": {encode_json(r.visible)}, "reasoning": '
                    f'{encode_json(r.reasoning)}, "tokens_est": {tokens_est(r)}}}\n'
                )
        ctx.stdout.write("".join(lines))


def _splitter(ctx: Context) -> Any:
    """The library call for one row: a text file's (``--format parquet`` is detection)."""
    fmt = ctx.args.format
    return text_reader(ctx.settings, None if fmt == "parquet" else fmt)
