"use strict";
// Trench in the browser: draws the server's game state as SVG and sends
// the player's actions to the JSON API. The server checks everything.

const SVGNS = "http://www.w3.org/2000/svg";
const FILES = "abcdefgh";
const NAMES = { P: "Soldier", S: "Sergeant", K: "Captain", C: "Colonel", G: "General" };
const VALUE = { P: 1, S: 2, K: 3, C: 4, G: 5 };
const SIZE = 560;      // the board's height in SVG units
const WIDE = 660;      // the diamond view's width, with room for the trench labels

let state = null;      // the last state from the server
let selected = null;   // the square of the selected piece
let square = false;    // square view instead of the diamond
let busy = false;

const $ = (id) => document.getElementById(id);

function sq(f, r) { return FILES[f] + (r + 1); }
function parseSq(s) { return [FILES.indexOf(s[0]), parseInt(s.slice(1), 10) - 1]; }

// geometry returns a square's centre, its outline and the piece radius in
// the current view. The diamond is the board turned 45°: the trench
// (a8–h1) horizontal, Black's corner a1 at the bottom, White's h8 at the top.
function geometry(f, r) {
  if (square) {
    const pad = 24, s = (SIZE - 2 * pad) / 8;
    const x = pad + f * s, y = pad + (7 - r) * s;
    return { cx: x + s / 2, cy: y + s / 2, radius: s * 0.38, unit: s / 2,
      points: `${x},${y} ${x + s},${y} ${x + s},${y + s} ${x},${y + s}` };
  }
  const pad = 16, h = (SIZE - 2 * pad) / 16, left = (WIDE - 16 * h) / 2;
  const cx = left + (f - r + 8) * h, cy = pad + (15 - (f + r)) * h;
  return { cx, cy, radius: h * 0.64, unit: h,
    points: `${cx},${cy - h} ${cx + h},${cy} ${cx},${cy + h} ${cx - h},${cy}` };
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function territory(f, r) { return f + r === 7 ? "tr" : f + r < 7 ? "bt" : "wt"; }

function drawBoard() {
  const svg = $("board");
  svg.setAttribute("viewBox", `0 0 ${square ? SIZE : WIDE} ${SIZE}`);
  svg.replaceChildren();
  const last = state && state.last ? [state.last.from, state.last.to] : [];
  const cells = el("g", {}, svg);
  for (let f = 0; f < 8; f++) for (let r = 0; r < 8; r++) {
    const g = geometry(f, r), name = sq(f, r);
    let cls = `cell ${territory(f, r)}${(f + r) % 2 ? " alt" : ""}`;
    if (last.includes(name)) cls += " lastmove";
    el("polygon", { points: g.points, class: cls, "data-cell": name }, cells);
  }
  drawLabels(svg);
  if (!state) return;
  const mine = state.human === "black" ? (p) => p === p.toUpperCase() : (p) => p === p.toLowerCase();
  const movable = new Set(state.legal.map((m) => m.from));
  const pieces = el("g", {}, svg);
  for (const name in state.board) {
    const p = state.board[name], [f, r] = parseSq(name), g = geometry(f, r);
    const colour = p === p.toUpperCase() ? "black" : "white";
    let cls = `piece ${colour}`;
    if (mine(p) && movable.has(name)) cls += " mine";
    if (name === selected) cls += " selected";
    const grp = el("g", { class: cls, "data-square": name, "data-piece": p }, pieces);
    const t = el("title", {}, grp);
    t.textContent = `${colour === "black" ? "Black" : "White"} ${NAMES[p.toUpperCase()]} (${VALUE[p.toUpperCase()]}) on ${name}`;
    el("circle", { cx: g.cx, cy: g.cy, r: g.radius }, grp);
    const letter = el("text", { x: g.cx, y: g.cy - g.radius * 0.12, "font-size": g.radius * 0.95 }, grp);
    letter.textContent = p.toUpperCase();
    const stars = el("text", { x: g.cx, y: g.cy + g.radius * 0.58, class: "stars", "font-size": g.radius * 0.36 }, grp);
    stars.textContent = "★".repeat(VALUE[p.toUpperCase()]);
    grp.addEventListener("click", (ev) => { ev.stopPropagation(); pieceClicked(name); });
  }
  if (selected) drawTargets(svg);
}

function drawLabels(svg) {
  const labels = el("g", {}, svg);
  const put = (f, r, dx, dy, text) => {
    const g = geometry(f, r);
    const t = el("text", { x: g.cx + dx * g.unit, y: g.cy + dy * g.unit, class: "label" }, labels);
    t.textContent = text;
  };
  if (square) {
    for (let i = 0; i < 8; i++) { put(i, 0, 0, 1.2, FILES[i]); put(0, i, -1.2, 0, String(i + 1)); }
    return;
  }
  for (let i = 0; i < 8; i++) {
    put(0, i, -0.78, 0.78, String(i + 1)); // lower left edge: file a, ranks 1-8
    put(i, 0, 0.78, 0.78, FILES[i]);       // lower right edge: rank 1, files a-h
    put(i, 7, -0.78, -0.78, FILES[i]);     // upper left edge: rank 8
    put(7, i, 0.78, -0.78, String(i + 1)); // upper right edge: file h
  }
  const a8 = geometry(0, 7), h1 = geometry(7, 0);
  const t1 = el("text", { x: a8.cx - a8.unit - 6, y: a8.cy, class: "trenchlabel", "text-anchor": "end" }, labels);
  t1.textContent = "trench";
  const t2 = el("text", { x: h1.cx + h1.unit + 6, y: h1.cy, class: "trenchlabel" }, labels);
  t2.textContent = "trench";
}

// drawTargets marks where the selected piece can go: a green dot on each
// empty square it can stop on, a red ring on each piece some move takes.
// Hovering a destination thickens the rings of the pieces that move takes.
function drawTargets(svg) {
  const layer = el("g", {}, svg);
  const moves = state.legal.filter((m) => m.from === selected);
  const rings = {};
  for (const m of moves) for (const c of m.captures) {
    const [f, r] = parseSq(c), g = geometry(f, r);
    if (!rings[c]) rings[c] = el("circle", { cx: g.cx, cy: g.cy, r: g.radius + 3, class: "capture", "data-captured": c }, layer);
  }
  for (const m of moves) {
    const [f, r] = parseSq(m.to), g = geometry(f, r);
    let target;
    if (state.board[m.to]) {
      target = el("circle", { cx: g.cx, cy: g.cy, r: g.radius + 3, class: "hit target", "data-square": m.to, "data-move": m.move }, layer);
    } else {
      target = el("circle", { cx: g.cx, cy: g.cy, r: g.unit * 0.3, class: "target", "data-square": m.to, "data-move": m.move }, layer);
    }
    const t = el("title", {}, target);
    t.textContent = m.captures.length ? `${m.move} takes ${m.captures.join(", ")}` : m.move;
    target.addEventListener("mouseenter", () => m.captures.forEach((c) => rings[c].classList.add("taken")));
    target.addEventListener("mouseleave", () => m.captures.forEach((c) => rings[c].classList.remove("taken")));
    target.addEventListener("click", (ev) => { ev.stopPropagation(); play(m.move); });
  }
}

function pieceClicked(name) {
  if (busy || !state) return;
  if (state.legal.some((m) => m.from === name)) {
    selected = selected === name ? null : name;
  } else {
    selected = null;
  }
  drawBoard();
}

function pct(x) { return Math.round(100 * x) + "%"; }

function render() {
  drawBoard();
  $("score-black").textContent = state.scores[0];
  $("score-white").textContent = state.scores[1];
  $("quiet").textContent = state.quiet_plies;
  $("quietlimit").textContent = state.quiet_limit;
  $("winscore").textContent = state.win_score;
  $("side").value = state.human;
  if ($("level").options.length !== state.levels) {
    $("level").replaceChildren();
    for (let i = 1; i <= state.levels; i++) {
      const o = document.createElement("option");
      o.value = i; o.textContent = "Level " + i;
      $("level").appendChild(o);
    }
  }
  $("level").value = state.level;
  let status;
  if (state.over) status = "Game over: " + state.result;
  else if (state.to_move === state.human) status = `Your move (${state.human})`;
  else status = "Engine to move";
  $("status").textContent = status;
  const list = $("moves");
  list.replaceChildren();
  for (let i = 0; i < state.moves.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = state.moves.slice(i, i + 2).join("  ");
    if (i + 2 >= state.moves.length) li.className = "last";
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
  const e = state.engine, box = $("engine");
  if (e) {
    const you = state.human === "black";
    const w = you ? e.black_win : e.black_loss, l = you ? e.black_loss : e.black_win;
    const pts = you ? e.score_diff : -e.score_diff;
    box.innerHTML = "";
    const p1 = document.createElement("div");
    p1.textContent = `Engine played ${e.move}. For you: win ${pct(w)}, draw ${pct(e.draw)}, loss ${pct(l)}; expected points ${pts >= 0 ? "+" : ""}${pts.toFixed(1)} (${e.sims} simulations, ${e.seconds.toFixed(1)} s).`;
    const p2 = document.createElement("div");
    p2.innerHTML = "Main line: ";
    const pv = document.createElement("span");
    pv.className = "pv"; pv.textContent = e.pv.join(" ");
    p2.appendChild(pv);
    box.append(p1, p2);
    const black = e.black_win + e.draw / 2;
    $("evalblack").style.flexBasis = pct(black);
    $("evalwhite").style.flexBasis = pct(1 - black);
    $("evaltext").textContent = `Black ${pct(black)}`;
  } else {
    box.textContent = state.moves.length ? "" : "New game. " + (state.human === "black" ? "You move first." : "");
  }
  const msg = $("message");
  msg.textContent = state.note || "";
  msg.className = "message info";
}

async function api(path, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) { const err = new Error(data.error || `HTTP ${res.status}`); err.status = res.status; throw err; }
  return data;
}

async function act(path, body, thinking) {
  if (busy) return;
  busy = true;
  document.querySelectorAll("button, select").forEach((b) => (b.disabled = true));
  if (thinking) $("status").textContent = "Engine is thinking…";
  try {
    state = await api(path, body);
    sessionStorage.setItem("trench-game", state.id);
    selected = null;
    render();
  } catch (err) {
    if (err.status === 404 && path !== "/api/new") {
      busy = false;
      return newGame();
    }
    const msg = $("message");
    msg.textContent = err.message;
    msg.className = "message";
    if (state) render(), (msg.textContent = err.message), (msg.className = "message");
  } finally {
    busy = false;
    document.querySelectorAll("button, select").forEach((b) => (b.disabled = false));
  }
}

function play(move) { return act("/api/move", { id: state.id, move }, true); }
function newGame() { return act("/api/new", { side: $("side").value, level: parseInt($("level").value, 10) || 0 }, true); }

$("new").addEventListener("click", newGame);
$("undo").addEventListener("click", () => act("/api/undo", { id: state.id }));
$("resign").addEventListener("click", () => { if (confirm("Resign this game?")) act("/api/resign", { id: state.id }); });
$("armistice").addEventListener("click", () => act("/api/armistice", { id: state.id }, true));
$("level").addEventListener("change", () => state && act("/api/level", { id: state.id, level: parseInt($("level").value, 10) }));
$("flip").addEventListener("click", () => {
  square = !square;
  $("flip").textContent = square ? "Diamond view" : "Square view";
  drawBoard();
});
$("board").addEventListener("click", () => { if (selected) { selected = null; drawBoard(); } });

(async function start() {
  drawBoard();
  const id = sessionStorage.getItem("trench-game");
  if (id) {
    try {
      state = await api("/api/state?id=" + encodeURIComponent(id));
      render();
      return;
    } catch (err) { /* the game is gone: start another */ }
  }
  newGame();
})();
