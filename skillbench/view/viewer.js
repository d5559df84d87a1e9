"use strict";
// skillbench viewer: filters and drill-down over the embedded decisions. Every string from
// the data is inserted with textContent (createTextNode), never parsed as HTML.
(function () {
  const DATA = JSON.parse(document.getElementById("skillbench-data").textContent);
  const PAGE = 100;
  const RUN = 0, CELL = 1, REQ = 2, REPEAT = 3, CHOSEN = 4, OUTCOME = 5, LISTING = 6,
    GOLD = 7, DETAIL = 8, WHY = 9, SCORE = 10, THRESHOLD = 11;
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

  function select(id, label, values, all) {
    const s = el("select", { id: id });
    if (all !== null) s.appendChild(el("option", { value: "" }, all));
    for (const [value, text] of values) s.appendChild(el("option", { value: value }, text));
    return [el("label", { for: id }, label, s), s];
  }

  const decisions = DATA.decisions;
  const requests = DATA.requests;
  const runs = DATA.runs;
  const two = runs.length === 2;
  const fmt = (x) => x.toLocaleString("en");

  function selectorOf(d) {
    return runs[d[RUN]].cellSelectors[d[CELL]];
  }

  function isBaseline(d) {
    const info = runs[d[RUN]].selectors[selectorOf(d)];
    return info !== undefined && info.baseline;
  }

  // -- controls ------------------------------------------------------------------------
  document.getElementById("loading").remove();
  for (const run of runs) {
    if (run.note) app.appendChild(el("p", { class: "note" }, run.name + ": " + run.note));
  }
  if (two && DATA.diff) app.appendChild(diffView(DATA.diff));
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
  const selectorNames = uniq(runs.flatMap((run) => Object.keys(run.selectors)));
  const baselineNames = new Set(runs.flatMap((run) => Object.entries(run.selectors)
    .filter(([, info]) => info.baseline).map(([name]) => name)));
  add("f-selector", "selector", selectorNames.map((s) =>
    [s, s + (baselineNames.has(s) ? " (baseline)" : "")]), "every selector");
  add("f-outcome", "outcome", uniq(decisions.map((d) => d[OUTCOME])).map((o) => [o, o]),
    "every outcome");
  add("f-tag", "tag", uniq(requests.flatMap((q) => q.tags)).map((t) => [t, t]), "every tag");
  const skills = uniq(requests.flatMap((q) => q.expected)
    .concat(decisions.map((d) => d[CHOSEN]).filter((c) => c !== null)));
  add("f-skill", "skill (expected or chosen)", skills.map((s) => [s, s]), "every skill");
  add("f-sort", "sort by", [["", "run order"], ["score", "score (high first)"],
    ["outcome", "outcome"], ["expected", "expected skill"], ["chosen", "chosen skill"]], null);
  const search = el("input", { id: "f-text", type: "search", placeholder: "request text or id" });
  search.addEventListener("input", refresh);
  filters.appendChild(el("label", { for: "f-text" }, "search", search));
  const onlyBaselines = selectorNames.every((s) => baselineNames.has(s));
  const baselines = el("input", { id: "f-baselines", type: "checkbox" });
  baselines.checked = onlyBaselines;
  baselines.addEventListener("change", refresh);
  if (baselineNames.size) {
    filters.appendChild(el("label", { for: "f-baselines", class: "check" }, baselines,
      "show baselines (" + Array.from(baselineNames).sort().join(", ") + ")"));
  }
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
  const relabels = new Map();
  const exportBox = el("section", { id: "labels", class: "labels", hidden: "" });
  app.appendChild(exportBox);

  // -- state in the URL ----------------------------------------------------------------
  const STATE = ["f-view", "f-cell", "f-selector", "f-outcome", "f-tag", "f-skill", "f-sort"];
  function readState() {
    const params = new URLSearchParams(location.hash.slice(1));
    for (const id of STATE) {
      const value = params.get(id.slice(2));
      if (value !== null && controls[id] &&
          Array.from(controls[id].options).some((o) => o.value === value)) controls[id].value = value;
    }
    if (params.has("text")) search.value = params.get("text");
    if (params.has("baselines")) baselines.checked = params.get("baselines") === "1";
  }
  function writeState() {
    const params = new URLSearchParams();
    for (const id of STATE) if (controls[id] && controls[id].value) params.set(id.slice(2), controls[id].value);
    if (search.value.trim()) params.set("text", search.value.trim());
    if (baselines.checked !== onlyBaselines) params.set("baselines", baselines.checked ? "1" : "0");
    const hash = params.toString();
    try {
      history.replaceState(null, "", hash ? "#" + hash : location.pathname + location.search);
    } catch (e) {
      location.hash = hash;
    }
  }

  // -- filtering -----------------------------------------------------------------------
  function inScope(d) {
    // The "M" of "N of M": the chosen cell and selector, baselines only when switched on.
    const cell = controls["f-cell"].value;
    if (cell && cell !== d[RUN] + ":" + d[CELL]) return false;
    const sel = controls["f-selector"].value;
    if (sel && selectorOf(d) !== sel) return false;
    if (!sel && !cell && !baselines.checked && isBaseline(d)) return false;
    return true;
  }

  function matches(d) {
    const q = requests[d[REQ]];
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

  function sortKey(d) {
    const how = controls["f-sort"].value;
    if (how === "score") return d[SCORE] === null ? Infinity : -d[SCORE];
    if (how === "outcome") return d[OUTCOME];
    if (how === "expected") return requests[d[REQ]].expected.join(",") || "~";
    if (how === "chosen") return d[CHOSEN] === null ? "~" : d[CHOSEN];
    return 0;
  }

  function sorted(items, first) {
    if (!controls["f-sort"].value) return items;
    const keyed = items.map((item, i) => [sortKey(first(item)), i, item]);
    keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    return keyed.map((k) => k[2]);
  }

  function selected() {
    const v = view();
    if (v === "") {
      const scope = DATA.flips.filter(([a, b]) => inScope(decisions[a]) || inScope(decisions[b]));
      const rows = scope.filter(([a, b]) => matches(decisions[a]) || matches(decisions[b]));
      return [sorted(rows, (f) => decisions[f[0]]), scope.length];
    }
    const scope = decisions.filter((d) => d[RUN] === Number(v) && inScope(d));
    return [sorted(scope.filter(matches), (d) => d), scope.length];
  }

  function refresh() {
    shown = PAGE;
    writeState();
    draw();
  }

  // -- drawing -------------------------------------------------------------------------
  function cellName(d) {
    return runs[d[RUN]].cells[d[CELL]];
  }

  function outcome(d) {
    return el("span", { class: "outcome " + d[OUTCOME] }, d[OUTCOME]);
  }

  function diffView(diff) {
    const box = el("section", { class: "diff", id: "diff" }, el("h2", {}, "What differs between the runs"));
    if (!diff.settings.length && !diff.descriptions.length) {
      box.appendChild(el("p", { class: "muted" }, "Nothing: the runs' settings and skill descriptions are the same."));
      return box;
    }
    if (diff.settings.length) {
      const t = el("table", { class: "settings" },
        el("thead", {}, el("tr", {}, el("th", {}, "setting"), el("th", {}, runs[0].name), el("th", {}, runs[1].name))));
      const body = el("tbody");
      const show = (v) => (v === null || v === undefined ? "–" : typeof v === "string" ? v : JSON.stringify(v));
      for (const [key, a, b] of diff.settings) {
        body.appendChild(el("tr", {}, el("td", {}, el("code", {}, key)), el("td", {}, show(a)), el("td", {}, show(b))));
      }
      t.appendChild(body);
      box.appendChild(t);
    }
    for (const [name, segments] of diff.descriptions) {
      const p = el("p", { class: "desc-diff" });
      for (const [op, text] of segments) {
        p.appendChild(op === "=" ? document.createTextNode(text) : el(op === "-" ? "del" : "ins", {}, text));
      }
      box.appendChild(el("div", { class: "skill-diff" }, el("h4", {}, "description of " + name), p));
    }
    return box;
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
        fmt(text.length) + " characters; " + where + ")"),
      key, pre);
  }

  function reason(d) {
    // The selector's own account: its top score against its threshold.
    const threshold = d[THRESHOLD];
    if (threshold === null || threshold === undefined) return null;
    const detail = d[DETAIL] || {};
    const top = Array.isArray(detail.top) && detail.top.length ? detail.top[0] : null;
    const score = top ? top[1] : d[SCORE];
    if (score === null || score === undefined) return "threshold " + threshold.toFixed(3) + "; nothing was scored";
    const margin = score - threshold;
    return (top ? "top-1 " + top[0] + " scored " : "best score ") + score.toFixed(3) +
      ", threshold " + threshold.toFixed(3) + ": margin " + (margin >= 0 ? "+" : "−") +
      Math.abs(margin).toFixed(3) + " → " + (margin >= 0 ? "invoke" : "abstain");
  }

  function relabelControl(q) {
    const s = el("select", { class: "relabel", "data-request": q.id });
    s.appendChild(el("option", { value: "" }, "keep: " + (q.expected.join(", ") || "no skill")));
    s.appendChild(el("option", { value: "-" }, "no skill"));
    for (const name of skills) s.appendChild(el("option", { value: name }, name));
    const current = relabels.get(q.id);
    if (current) s.value = current.expected.length ? current.expected[0] : "-";
    s.addEventListener("click", (e) => e.stopPropagation());
    s.addEventListener("change", () => {
      if (s.value === "") relabels.delete(q.id);
      else relabels.set(q.id, { id: q.id, expected: s.value === "-" ? [] : [s.value], was: q.expected });
      drawExport();
    });
    return s;
  }

  function drawExport() {
    exportBox.textContent = "";
    exportBox.hidden = relabels.size === 0;
    if (!relabels.size) return;
    const lines = Array.from(relabels.values()).sort((a, b) => a.id.localeCompare(b.id))
      .map((r) => JSON.stringify(r)).join("\n") + "\n";
    const url = URL.createObjectURL(new Blob([lines], { type: "application/x-ndjson" }));
    const area = el("textarea", { id: "labels-export", readonly: "", rows: String(Math.min(8, relabels.size + 1)) });
    area.value = lines;
    exportBox.append(
      el("h3", {}, "Relabelled requests: " + relabels.size),
      el("p", { class: "muted" }, "Save as labels.jsonl, then score with it: ",
        el("code", {}, "skillbench run CONFIG --labels labels.jsonl"), " (a new run) or ",
        el("code", {}, "skillbench report RUN --labels labels.jsonl"), " (these decisions, new labels)."),
      el("a", { id: "labels-download", href: url, download: "labels.jsonl" }, "download labels.jsonl"),
      area);
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
    if (d[WHY]) {
      dl.appendChild(el("dt", {}, "why not shown"));
      dl.appendChild(el("dd", { class: "why" }, d[WHY]));
    }
    const said = reason(d);
    if (said) {
      dl.appendChild(el("dt", {}, "selector's reason"));
      dl.appendChild(el("dd", { class: "reason" }, said));
    }
    const mismatch = d[DETAIL] && d[DETAIL].listing_mismatch;
    if (mismatch) {
      dl.appendChild(el("dt", {}, "listing mismatch"));
      dl.appendChild(el("dd", { class: "why" }, "the agent saw another listing than this one: " + mismatch));
    }
    if (q.labelSource !== null) {
      dl.appendChild(el("dt", {}, "label source"));
      dl.appendChild(el("dd", {}, q.labelSource));
    }
    if (q.classes && q.classes.length) {
      dl.appendChild(el("dt", {}, "in the session"));
      dl.appendChild(el("dd", { class: "session-class" }, q.classes.join("; ")));
    }
    dl.appendChild(el("dt", {}, "relabel"));
    dl.appendChild(el("dd", {}, relabelControl(q)));
    const box = el("div", { class: "detail" }, dl, listingView(d));
    const detail = d[DETAIL];
    if (detail) {
      if (typeof detail.response === "string") {
        box.appendChild(el("h4", {}, "The model's raw answer"));
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
      el("td", { title: d[WHY] || "" }, outcome(d), d[WHY] ? el("span", { class: "hidden-mark" }, " not shown") : null),
      el("td", { class: "num" }, d[SCORE] === null ? "–" : d[SCORE].toFixed(3)),
      el("td", {}, cellName(d)),
      el("td", {}, q.tags.join(", ")));
    const open = () => toggle(tr, () => detailView(d), 8);
    tr.addEventListener("click", open);
    tr.addEventListener("keydown", (e) => { if (e.key === "Enter" && e.target === tr) open(); });
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
    tr.addEventListener("keydown", (e) => { if (e.key === "Enter" && e.target === tr) open(); });
    return tr;
  }

  function scopeName() {
    const cell = controls["f-cell"].value, sel = controls["f-selector"].value;
    if (cell) return " in this cell";
    if (sel) return " of " + sel;
    return baselines.checked || !baselineNames.size ? "" : " of the selectors under test";
  }

  function draw() {
    const [rows, total] = selected();
    const flipped = view() === "";
    counts.textContent = "";
    counts.appendChild(el("strong", { id: "count" }, fmt(rows.length)));
    counts.appendChild(el("span", { id: "of" }, " of " + fmt(total) +
      (flipped ? " flipped requests" : " decisions") + scopeName()));
    const tally = {};
    for (const item of rows) {
      const d = flipped ? decisions[item[0]] : item;
      const key = flipped ? (CORRECT.has(d[OUTCOME]) ? "A right, B wrong" : "A wrong, B right") : d[OUTCOME];
      tally[key] = (tally[key] || 0) + 1;
    }
    for (const key of Object.keys(tally).sort()) {
      counts.appendChild(el("span", { class: "chip", "data-outcome": key }, key + ": " + fmt(tally[key])));
    }
    if (flipped) header(["request", "text", "expected", "cell", runs[0].name, runs[1].name]);
    else header(["request", "text", "expected", "chosen", "outcome", "score", "cell", "tags"]);
    tbody.textContent = "";
    const frag = document.createDocumentFragment();
    for (const item of rows.slice(0, shown)) frag.appendChild(flipped ? flipRow(item) : decisionRow(item));
    tbody.appendChild(frag);
    const left = rows.length - Math.min(shown, rows.length);
    more.hidden = left === 0;
    more.textContent = "Show " + Math.min(PAGE, left) + " more (" + fmt(left) + " left)";
  }

  readState();
  draw();
})();
