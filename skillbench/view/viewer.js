"use strict";
// skillbench viewer: filters and drill-down over the embedded decisions. Every string from
// the data is inserted with textContent (createTextNode), never parsed as HTML.
(function () {
  const DATA = JSON.parse(document.getElementById("skillbench-data").textContent);
  const PAGE = 100;
  const RUN = 0, CELL = 1, REQ = 2, REPEAT = 3, CHOSEN = 4, OUTCOME = 5, LISTING = 6,
    GOLD = 7, DETAIL = 8;
  const CORRECT = new Set(["correct_skill", "correct_abstain"]);
  const app = document.getElementById("app");
  let shown = PAGE;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else node.setAttribute(k, v);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function uniq(values) {
    return Array.from(new Set(values)).sort((a, b) => String(a).localeCompare(String(b)));
  }

  function option(value, text) {
    const o = el("option", { value: value }, text);
    return o;
  }

  function select(id, label, values, all) {
    const s = el("select", { id: id });
    s.appendChild(option("", all));
    for (const [value, text] of values) s.appendChild(option(value, text));
    return [el("label", { for: id }, label, s), s];
  }

  const decisions = DATA.decisions;
  const requests = DATA.requests;
  const runs = DATA.runs;
  const two = runs.length === 2;

  // -- controls ------------------------------------------------------------------------
  document.getElementById("loading").remove();
  for (const run of runs) {
    if (run.note) app.appendChild(el("p", { class: "note" }, run.name + ": " + run.note));
  }
  const filters = el("div", { class: "filters", role: "search" });
  const controls = {};
  function add(id, label, values, all) {
    const [wrap, s] = select(id, label, values, all);
    filters.appendChild(wrap);
    controls[id] = s;
    s.addEventListener("change", refresh);
  }
  if (two) {
    add("f-view", "show", [["0", "decisions of " + runs[0].name],
      ["1", "decisions of " + runs[1].name]], "flipped requests (A right ↔ B right)");
  }
  const cellValues = [];
  runs.forEach((run, r) => run.cells.forEach((label, c) => {
    cellValues.push([r + ":" + c, (two ? run.name + " · " : "") + label]);
  }));
  add("f-cell", "cell", cellValues, "every cell");
  add("f-outcome", "outcome", uniq(decisions.map((d) => d[OUTCOME])).map((o) => [o, o]),
    "every outcome");
  add("f-tag", "tag", uniq(requests.flatMap((q) => q.tags)).map((t) => [t, t]), "every tag");
  const skills = uniq(requests.flatMap((q) => q.expected)
    .concat(decisions.map((d) => d[CHOSEN]).filter((c) => c !== null)));
  add("f-skill", "skill (expected or chosen)", skills.map((s) => [s, s]), "every skill");
  const search = el("input", { id: "f-text", type: "search", placeholder: "request text or id" });
  search.addEventListener("input", refresh);
  filters.appendChild(el("label", { for: "f-text" }, "search", search));
  app.appendChild(filters);
  const counts = el("div", { class: "counts", id: "counts" });
  app.appendChild(counts);
  const table = el("table", { id: "decisions" });
  const thead = el("thead");
  const tbody = el("tbody");
  table.appendChild(thead);
  table.appendChild(tbody);
  app.appendChild(table);
  const more = el("button", { id: "more", type: "button" }, "");
  more.addEventListener("click", () => { shown += PAGE; draw(); });
  app.appendChild(more);
  if (two && DATA.pairing) app.appendChild(el("p", { class: "muted" }, "Pairing: " + DATA.pairing + "."));

  // -- filtering -----------------------------------------------------------------------
  function matches(d) {
    const q = requests[d[REQ]];
    const cell = controls["f-cell"].value;
    if (cell && cell !== d[RUN] + ":" + d[CELL]) return false;
    const outcome = controls["f-outcome"].value;
    if (outcome && d[OUTCOME] !== outcome) return false;
    const tag = controls["f-tag"].value;
    if (tag && !q.tags.includes(tag)) return false;
    const skill = controls["f-skill"].value;
    if (skill && d[CHOSEN] !== skill && !q.expected.includes(skill)) return false;
    const text = search.value.trim().toLowerCase();
    if (text && !(q.id.toLowerCase().includes(text) ||
        (q.text || "").toLowerCase().includes(text))) return false;
    return true;
  }

  function view() {
    return two ? controls["f-view"].value : "0";
  }

  function selected() {
    const v = view();
    if (v === "") return DATA.flips.filter(([a, b]) => matches(decisions[a]) || matches(decisions[b]));
    return decisions.filter((d) => d[RUN] === Number(v) && matches(d));
  }

  function refresh() {
    shown = PAGE;
    draw();
  }

  // -- drawing -------------------------------------------------------------------------
  function cellName(d) {
    return runs[d[RUN]].cells[d[CELL]];
  }

  function outcome(d) {
    return el("span", { class: "outcome " + d[OUTCOME] }, d[OUTCOME]);
  }

  function listingView(d) {
    const q = requests[d[REQ]];
    if (d[LISTING] === null) return el("p", { class: "muted" }, "Listing not available.");
    const listing = DATA.listings[d[LISTING]];
    const text = listing.lines.map((i) => DATA.lines[i]).join("\n");
    if (!text) return el("p", { class: "muted" }, "The listing was empty: no skill fit the budget.");
    const marks = [];
    listing.spans.forEach(([name, start, end], pos) => {
      const classes = [];
      if (q.expected.includes(name)) classes.push("expected");
      if (name === d[CHOSEN]) classes.push("chosen");
      if (classes.length) marks.push({ start: start, end: end, cls: classes.join(" "), pos: pos, name: name });
    });
    const pre = el("pre", { class: "listing" });
    let at = 0;
    for (const m of marks) {
      pre.appendChild(document.createTextNode(text.slice(at, m.start)));
      pre.appendChild(el("mark", { class: m.cls, title: m.name + " at position " + m.pos },
        text.slice(m.start, m.end)));
      at = m.end;
    }
    pre.appendChild(document.createTextNode(text.slice(at)));
    const where = q.expected.length === 0 ? "no skill expected"
      : d[GOLD] === null ? "expected skill not shown"
        : "expected skill at position " + d[GOLD] + " (0-based)";
    const key = el("p", { class: "muted key" }, "Highlighted: ", el("mark", { class: "expected" }, "expected"),
      " ", el("mark", { class: "chosen" }, "chosen"), " ", el("mark", { class: "expected chosen" }, "both"));
    return el("div", {},
      el("h4", {}, "Listing the model saw (" + listing.spans.length + " skills shown, " +
        text.length.toLocaleString("en") + " characters; " + where + ")"),
      key, pre);
  }

  function detailView(d) {
    const q = requests[d[REQ]];
    const dl = el("dl", {},
      el("dt", {}, "request"), el("dd", {}, q.id + (d[REPEAT] ? " (repeat " + d[REPEAT] + ")" : "")),
      el("dt", {}, "text"), el("dd", {}, q.text === null ? "(not available)" : q.text),
      el("dt", {}, "expected"), el("dd", {}, q.expected.join(", ") || "no skill"),
      el("dt", {}, "chosen"), el("dd", {}, d[CHOSEN] === null ? "no skill" : d[CHOSEN]),
      el("dt", {}, "outcome"), el("dd", {}, outcome(d)),
      el("dt", {}, "cell"), el("dd", {}, (two ? runs[d[RUN]].name + " · " : "") + cellName(d)),
      el("dt", {}, "tags"), el("dd", {}, q.tags.join(", ") || "–"));
    if (q.labelSource !== null) {
      dl.appendChild(el("dt", {}, "label source"));
      dl.appendChild(el("dd", {}, q.labelSource));
    }
    const box = el("div", { class: "detail" }, dl, listingView(d));
    const detail = d[DETAIL];
    if (detail) {
      if (typeof detail.response === "string") {
        box.appendChild(el("h4", {}, "Raw model response"));
        box.appendChild(el("pre", { class: "response" }, detail.response));
      }
      const rest = Object.assign({}, detail);
      delete rest.response;
      if (Object.keys(rest).length) {
        box.appendChild(el("h4", {}, "Selector detail"));
        box.appendChild(el("pre", { class: "response" }, JSON.stringify(rest)));
      }
    }
    return box;
  }

  function toggle(tr, make, span) {
    const next = tr.nextSibling;
    if (next && next.classList.contains("expanded")) {
      next.remove();
      tr.classList.remove("open");
      return;
    }
    tr.classList.add("open");
    const td = el("td", { class: "detail", colspan: String(span) }, make());
    tr.after(el("tr", { class: "expanded" }, td));
  }

  function header(names) {
    thead.textContent = "";
    thead.appendChild(el("tr", {}, ...names.map((n) => el("th", {}, n))));
  }

  function decisionRow(d) {
    const q = requests[d[REQ]];
    const tr = el("tr", { class: "decision", tabindex: "0" },
      el("td", {}, q.id),
      el("td", { class: "text", title: q.text || "" }, q.text === null ? "–" : q.text),
      el("td", {}, q.expected.join(", ") || "–"),
      el("td", {}, d[CHOSEN] === null ? "–" : d[CHOSEN]),
      el("td", {}, outcome(d)),
      el("td", {}, cellName(d)),
      el("td", {}, q.tags.join(", ")));
    const open = () => toggle(tr, () => detailView(d), 7);
    tr.addEventListener("click", open);
    tr.addEventListener("keydown", (e) => { if (e.key === "Enter") open(); });
    return tr;
  }

  function flipRow([a, b]) {
    const da = decisions[a], db = decisions[b];
    const q = requests[da[REQ]];
    const side = (d) => el("td", {}, outcome(d), " ", d[CHOSEN] === null ? "–" : d[CHOSEN]);
    const tr = el("tr", { class: "decision", tabindex: "0" },
      el("td", {}, q.id),
      el("td", { class: "text", title: q.text || "" }, q.text === null ? "–" : q.text),
      el("td", {}, q.expected.join(", ") || "–"),
      el("td", {}, cellName(da)),
      side(da), side(db));
    const open = () => toggle(tr, () => el("div", { class: "side" }, detailView(da), detailView(db)), 6);
    tr.addEventListener("click", open);
    tr.addEventListener("keydown", (e) => { if (e.key === "Enter") open(); });
    return tr;
  }

  function draw() {
    const rows = selected();
    const flipped = view() === "";
    const total = flipped ? DATA.flips.length : decisions.filter((d) => d[RUN] === Number(view())).length;
    counts.textContent = "";
    counts.appendChild(el("strong", { id: "count" }, rows.length.toLocaleString("en")));
    counts.appendChild(document.createTextNode(" of " + total.toLocaleString("en") +
      (flipped ? " flipped requests" : " decisions")));
    const tally = {};
    for (const item of rows) {
      const d = flipped ? decisions[item[0]] : item;
      const key = flipped ? (CORRECT.has(d[OUTCOME]) ? "A right, B wrong" : "A wrong, B right") : d[OUTCOME];
      tally[key] = (tally[key] || 0) + 1;
    }
    for (const key of Object.keys(tally).sort()) {
      counts.appendChild(el("span", { class: "chip", "data-outcome": key },
        key + ": " + tally[key].toLocaleString("en")));
    }
    if (flipped) header(["request", "text", "expected", "cell", runs[0].name, runs[1].name]);
    else header(["request", "text", "expected", "chosen", "outcome", "cell", "tags"]);
    tbody.textContent = "";
    const frag = document.createDocumentFragment();
    for (const item of rows.slice(0, shown)) frag.appendChild(flipped ? flipRow(item) : decisionRow(item));
    tbody.appendChild(frag);
    const left = rows.length - Math.min(shown, rows.length);
    more.hidden = left === 0;
    more.textContent = "Show " + Math.min(PAGE, left) + " more (" + left.toLocaleString("en") + " left)";
  }

  draw();
})();
