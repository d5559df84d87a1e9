"""``skillbench view RUN [RUN2]``: an interactive page of every decision of a run."""

from __future__ import annotations

import argparse
from pathlib import Path

from skillbench.cli._common import EXIT_OK, add_output, add_quiet, env_default, env_flag

HELP = "write (and open or serve) an interactive page of every decision in a run"
DESCRIPTION = """\
Write one self-contained HTML page (no network; data embedded) with every decision of a run:
request text, expected and chosen skill, outcome, cell, tags, label source, the listing the
model saw with the expected skill highlighted at its position, and the raw model response.
Filter by cell, outcome, tag, skill and text; counts follow the filters. With two runs the
page opens on the requests whose outcome flipped between them, side by side.

examples:
  skillbench view reports/quickstart                      → reports/quickstart/view.html
  skillbench view reports/base reports/rewrite -o flips.html --open
  skillbench view reports/quickstart --serve --port 8765  http://127.0.0.1:8765/
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", metavar="RUN", help="run directory (holds summary.json)")
    parser.add_argument(
        "run2", metavar="RUN2", nargs="?", help="second run: show the flipped requests"
    )
    add_output(parser, "page to write (default: RUN/view.html)")
    parser.add_argument(
        "--open",
        action="store_true",
        default=env_flag("open"),
        help="open the page in the default browser [env: SKILLBENCH_OPEN]",
    )
    parser.add_argument(
        "--serve",
        action="store_true",
        default=env_flag("serve"),
        help="serve the page on 127.0.0.1 until Ctrl-C [env: SKILLBENCH_SERVE]",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=env_default("port", 0),
        help="port for --serve (default: any free port) [env: SKILLBENCH_PORT]",
    )
    add_quiet(parser)


def run(args: argparse.Namespace) -> int:
    from skillbench._output import output_file
    from skillbench.view import write_view

    runs = [args.run] + ([args.run2] if args.run2 else [])
    output = output_file(args.output or Path(args.run) / "view.html", make_parent=True)
    page = write_view(runs, output)
    if not args.quiet:
        print(page)
    if args.serve:
        _serve(page, args.port, quiet=args.quiet, open_browser=args.open)
    elif args.open:
        import webbrowser

        webbrowser.open(page.resolve().as_uri())
    return EXIT_OK


def _serve(page: Path, port: int, *, quiet: bool, open_browser: bool) -> None:
    """Serve the page alone on the loopback interface until interrupted."""
    import contextlib
    import http.server
    import webbrowser

    body = page.read_bytes()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path not in ("/", "/" + page.name):
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            return

    with http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler) as server:
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        if not quiet:
            print(f"serving {url} (Ctrl-C to stop)")
        if open_browser:
            webbrowser.open(url)
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how the user stops it
            server.serve_forever()
