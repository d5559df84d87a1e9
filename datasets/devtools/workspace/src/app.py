"""Tiny order service used as the working directory of the devtools catalog."""

import json
import sqlite3
from http.server import BaseHTTPRequestHandler, HTTPServer

DB_PATH = "shop.db"


def open_orders(customer_id: int) -> list[dict[str, object]]:
    """Return the open orders of one customer, newest first."""
    with sqlite3.connect(DB_PATH) as conn:
        rows = conn.execute(
            "SELECT id, status, total_cents FROM orders"
            " WHERE customer_id = ? AND status = 'open' ORDER BY created_at DESC",
            (customer_id,),
        ).fetchall()
    return [{"id": r[0], "status": r[1], "total_cents": r[2]} for r in rows]


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if not self.path.startswith("/customers/"):
            self.send_error(404)
            return
        customer_id = int(self.path.rsplit("/", 1)[-1])
        body = json.dumps(open_orders(customer_id)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 8000), Handler).serve_forever()
