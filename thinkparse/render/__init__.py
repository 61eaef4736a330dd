"""HTML: a result's fragment and a standalone page of many results.

* ``_fragment`` -- ``render_html``, ``render_script``: one result's markup;
* ``_page``     -- ``render_page``, ``write_page``, ``PageStream``: a page, streamed;
* ``_assets``   -- the page's script and styles.

Imports the core.  The public names are re-exported (on first use) by :mod:`thinkparse`.
"""
