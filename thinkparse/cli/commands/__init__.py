"""The ``thinkparse`` commands, built on the plumbing of :mod:`thinkparse.cli`.

The main command over FILE arguments:

* ``_run``      -- the main command: each FILE in turn, ``--stream`` or ``--jobs N``;
* ``_file``     -- one FILE argument: its kind, then the library call that reads it;
* ``_textfile`` -- text inputs in bounded memory;
* ``_jsonl``    -- JSON Lines records;
* ``_live``     -- ``--stream``;
* ``_live_io``  -- ``--stream``: reading, decoding and writing as data arrives;
* ``_parquet``  -- Parquet inputs and outputs;
* ``_jobs``     -- ``--jobs N``: the worker pool and the output in order;
* ``_worker``   -- ``--jobs N``: what a worker process does (it runs ``_file`` and ``_jsonl``);
* ``html``      -- ``--html``: the page the run writes (loaded only then).

Subcommands, each ``main(argv)`` (loaded only when its word is given): ``traces`` (the trace
store, its options parsed by ``_traces_args``, its inputs read through ``_traces_input``)
and ``convert`` (chat-trace conversion).
"""
