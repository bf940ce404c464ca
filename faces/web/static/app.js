"use strict";
// Trench and Trichess in the browser: draws the server's game state as SVG
// and sends the player's actions to the JSON API. The server checks
// everything.

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
let config = null;     // the server's games and evaluators

// Trichess: the hexagon of three sections around the centre, as on the
// table. Each section's two halves (files a-d, e-h) are four-sided sectors
// centre - middle of the back rank - corner - middle of the side edge; a
// square is its 4x4 cell of the sector, interpolated bilinearly. White's
// back rank is the bottom edge, Red's upper right, Black's upper left.
const TRI = { W: 0, R: 1, B: 2 };
const TRI_NAMES = ["White", "Red", "Black"];
const TRI_KINDS = { P: "pawn", N: "knight", B: "bishop", R: "rook", Q: "queen", K: "king" };
const TSIZE = 640, TRADIUS = 270;

function triPoint(sec, f, x, y) {
  const base = 270 + 120 * sec, side = f < 4 ? -60 : 60, ap = TRADIUS * Math.sqrt(3) / 2;
  const polar = (deg, r) => [r * Math.cos(deg * Math.PI / 180), -r * Math.sin(deg * Math.PI / 180)];
  const a = polar(base, ap), b = polar(base + side, ap), v = polar(base + side / 2, TRADIUS);
  return [TSIZE / 2 + a[0] * (1 - x) * y + b[0] * x * (1 - y) + v[0] * x * y,
    TSIZE / 2 + a[1] * (1 - x) * y + b[1] * x * (1 - y) + v[1] * x * y];
}

// triGeometry returns a Trichess square's outline, centre and piece radius.
function triGeometry(name) {
  const sec = TRI[name[0]], f = FILES.indexOf(name[1]), r = parseInt(name[2], 10) - 1;
  const x0 = (f < 4 ? 3 - f : f - 4) / 4, y0 = (3 - r) / 4, q = 0.25;
  const corners = [[x0, y0], [x0 + q, y0], [x0 + q, y0 + q], [x0, y0 + q]].map(([x, y]) => triPoint(sec, f, x, y));
  const [cx, cy] = triPoint(sec, f, x0 + q / 2, y0 + q / 2);
  let minSide = Infinity;
  for (let i = 0; i < 4; i++) {
    const [ax, ay] = corners[i], [bx, by] = corners[(i + 1) % 4];
    minSide = Math.min(minSide, Math.hypot(bx - ax, by - ay));
  }
  return { cx, cy, radius: Math.min(16, minSide * 0.42), unit: minSide / 2, sec, f, r,
    points: corners.map((c) => c[0].toFixed(1) + "," + c[1].toFixed(1)).join(" ") };
}

function triSquares() {
  const names = [];
  for (const s of "WRB") for (let f = 0; f < 8; f++) for (let r = 1; r <= 4; r++) names.push(s + FILES[f] + r);
  return names;
}

function isTrichess() { return state ? state.game === "trichess" : $("game").value === "trichess"; }

function drawTrichessBoard() {
  const svg = $("board");
  svg.setAttribute("viewBox", `0 0 ${TSIZE} ${TSIZE}`);
  svg.setAttribute("aria-label", "Trichess board");
  svg.replaceChildren();
  const last = state && state.last ? [state.last.from, state.last.to] : [];
  const cells = el("g", {}, svg);
  for (const name of triSquares()) {
    const g = triGeometry(name);
    let cls = `tcell s${name[0].toLowerCase()}${(g.f + g.r) % 2 ? " alt" : ""}`;
    if (last.includes(name)) cls += " lastmove";
    const poly = el("polygon", { points: g.points, class: cls, "data-cell": name }, cells);
    el("title", {}, poly).textContent = name;
  }
  const labels = el("g", {}, svg);
  for (let sec = 0; sec < 3; sec++) {
    const S = "WRB"[sec];
    for (let f = 0; f < 8; f++) {
      const x = ((f < 4 ? 3 - f : f - 4) + 0.5) / 4, [lx, ly] = triPoint(sec, f, x, 1.09);
      el("text", { x: lx, y: ly, class: "tlabel" }, labels).textContent = FILES[f];
    }
    for (const f of [0, 7]) for (let r = 0; r < 4; r++) {
      const [lx, ly] = triPoint(sec, f, 1.07, (3 - r + 0.5) / 4);
      el("text", { x: lx, y: ly, class: "tlabel" }, labels).textContent = String(r + 1);
    }
    const [nx, ny] = triPoint(sec, 4, 0, 1.2);
    el("text", { x: nx, y: ny, class: `tname ${S.toLowerCase()}` }, labels).textContent = TRI_NAMES[sec];
  }
  if (!state) return;
  const humans = new Set(state.humans);
  const movable = new Set(state.legal.map((m) => m.from));
  const pieces = el("g", {}, svg);
  for (const name in state.board) {
    const p = state.board[name], g = triGeometry(name), owner = "wrb".indexOf(p[0]);
    let cls = `piece t${p[0]}`;
    if (humans.has(TRI_NAMES[owner].toLowerCase()) && movable.has(name)) cls += " mine";
    if (name === selected) cls += " selected";
    const grp = el("g", { class: cls, "data-square": name, "data-piece": p }, pieces);
    el("title", {}, grp).textContent = `${TRI_NAMES[owner]} ${TRI_KINDS[p[1]]} on ${name}`;
    el("circle", { cx: g.cx, cy: g.cy, r: g.radius }, grp);
    el("text", { x: g.cx, y: g.cy, "font-size": g.radius * 1.15 }, grp).textContent = p[1];
    grp.addEventListener("click", (ev) => { ev.stopPropagation(); pieceClicked(name); });
  }
  if (selected) drawTrichessTargets(svg);
}

// drawTrichessTargets marks where the selected piece can go: a green dot
// on an empty square, a red ring on a piece it takes. A liberation offers
// several moves to one square: the page asks which piece to free.
function drawTrichessTargets(svg) {
  const layer = el("g", {}, svg);
  const byTarget = {};
  for (const m of state.legal.filter((m) => m.from === selected)) (byTarget[m.to] = byTarget[m.to] || []).push(m);
  for (const to in byTarget) {
    const moves = byTarget[to], g = triGeometry(to), take = moves[0].captures.length > 0;
    const target = take
      ? el("circle", { cx: g.cx, cy: g.cy, r: g.radius + 3, class: "capture target-ring", "data-square": to, "data-move": moves[0].move }, layer)
      : el("circle", { cx: g.cx, cy: g.cy, r: Math.max(4, g.unit * 0.35), class: "target", "data-square": to, "data-move": moves[0].move }, layer);
    el("title", {}, target).textContent = moves.map((m) => m.move).join(" or ") + (take ? ` takes ${state.board[to]}` : "");
    target.addEventListener("click", (ev) => {
      ev.stopPropagation();
      if (moves.length === 1) return play(moves[0].move);
      const kinds = moves.map((m) => m.move.slice(-1)).join(", ");
      const k = (prompt(`Free which piece? (${kinds})`, moves[0].move.slice(-1)) || "").trim().toUpperCase();
      const m = moves.find((m) => m.move.endsWith("=" + k));
      if (m) play(m.move);
    });
  }
}

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
  if (isTrichess()) return drawTrichessBoard();
  const svg = $("board");
  svg.setAttribute("aria-label", "Trench board");
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

// showGame shows the controls of the current game.
function showGame(game) {
  const tri = game === "trichess";
  $("game").value = game;
  $("title").textContent = tri ? "Trichess" : "Trench";
  document.querySelectorAll(".trench-only").forEach((e) => (e.hidden = tri));
  document.querySelectorAll(".trichess-only").forEach((e) => (e.hidden = !tri));
  $("trench-scores").hidden = tri;
  $("trichess-scores").hidden = !tri;
  $("evalbar").hidden = tri;
  if (config) $("evaluator").textContent = "Bot: " + config.evaluators[game];
}

// showProgress writes whose move it is (humanToMove: a person's) and the
// moves played, perRound to a line of the list styled listClass.
function showProgress(humanToMove, perRound, listClass) {
  let status;
  if (state.over) status = "Game over: " + state.result;
  else if (humanToMove) status = `Your move (${state.to_move})`;
  else status = "Bot to move";
  $("status").textContent = status;
  const list = $("moves");
  list.replaceChildren();
  list.className = listClass;
  for (let i = 0; i < state.moves.length; i += perRound) {
    const li = document.createElement("li");
    li.textContent = state.moves.slice(i, i + perRound).join("  ");
    if (i + perRound >= state.moves.length) li.className = "last";
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
}

function renderTrichess() {
  drawBoard();
  showGame("trichess");
  ["white", "red", "black"].forEach((n, i) => {
    $("mat-" + n).textContent = state.material[i];
    $("seat-" + n).checked = state.humans.includes(n);
  });
  $("tquiet").textContent = state.quiet_plies;
  $("checks").textContent = state.checks && state.checks.length ? " · in check: " + state.checks.join(", ") : "";
  const humans = new Set(state.humans);
  showProgress(humans.has(state.to_move), 3, "moves tri");
  const e = state.engine, box = $("engine");
  box.replaceChildren();
  if (e) {
    const p1 = document.createElement("div");
    p1.textContent = `${e.player[0].toUpperCase() + e.player.slice(1)} (bot) played ${e.move} (${effort(e)}, ${e.seconds.toFixed(1)} s). Expected points:`;
    const tbl = document.createElement("div");
    tbl.className = "seatevals";
    for (const se of e.seats) {
      const row = document.createElement("div");
      row.textContent = `${se.player.padEnd(6)} ${se.points.toFixed(2)} (value ${se.value >= 0 ? "+" : ""}${se.value.toFixed(2)})${humans.has(se.player) ? "  you" : ""}`;
      tbl.appendChild(row);
    }
    const p2 = document.createElement("div");
    p2.textContent = "Main line: ";
    const pv = document.createElement("span");
    pv.className = "pv"; pv.textContent = e.pv.join(" ");
    p2.appendChild(pv);
    box.append(p1, tbl, p2);
  } else {
    box.textContent = state.moves.length ? "" : "New game. White moves first.";
  }
  const msg = $("message");
  msg.textContent = state.note || "";
  msg.className = "message info";
}

// effort says how far the bot searched: simulations, or an alpha-beta
// bot's nodes and depth.
function effort(e) {
  return e.nodes ? `${e.nodes} nodes, depth ${e.depth}` : `${e.sims} simulations`;
}

function render() {
  if ($("level").options.length !== state.levels) {
    $("level").replaceChildren();
    for (let i = 1; i <= state.levels; i++) {
      const o = document.createElement("option");
      o.value = i; o.textContent = "Level " + i;
      $("level").appendChild(o);
    }
  }
  $("level").value = state.level;
  if (state.game === "trichess") return renderTrichess();
  showGame("trench");
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
  showProgress(state.to_move === state.human, 2, "moves");
  const e = state.engine, box = $("engine");
  if (e) {
    const you = state.human === "black";
    const w = you ? e.black_win : e.black_loss, l = you ? e.black_loss : e.black_win;
    const pts = you ? e.score_diff : -e.score_diff;
    box.innerHTML = "";
    const p1 = document.createElement("div");
    // An alpha-beta bot (e.nodes set) gives no draw chance and no expected points.
    p1.textContent = e.nodes
      ? `Bot played ${e.move}. For you: win ${pct(w)}, loss ${pct(l)} (${effort(e)}, ${e.seconds.toFixed(1)} s).`
      : `Bot played ${e.move}. For you: win ${pct(w)}, draw ${pct(e.draw)}, loss ${pct(l)}; expected points ${pts >= 0 ? "+" : ""}${pts.toFixed(1)} (${effort(e)}, ${e.seconds.toFixed(1)} s).`;
    const p2 = document.createElement("div");
    p2.innerHTML = "Main line: ";
    const pv = document.createElement("span");
    pv.className = "pv"; pv.textContent = e.pv.join(" ");
    p2.appendChild(pv);
    box.append(p1, p2);
    if (e.guard) {
      const p3 = document.createElement("div");
      p3.textContent = "Check: " + e.guard + ".";
      box.append(p3);
    }
    if (e.endgame) {
      const p4 = document.createElement("div");
      p4.textContent = "Endgame: " + e.endgame + ".";
      box.append(p4);
    }
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
  if (thinking) $("status").textContent = "Bot is thinking…";
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
function newGame() {
  const level = parseInt($("level").value, 10) || 0;
  if ($("game").value === "trichess") {
    const seats = ["white", "red", "black"].filter((n) => $("seat-" + n).checked);
    return act("/api/new", { game: "trichess", seats: seats.length ? seats : ["white"], level }, true);
  }
  return act("/api/new", { game: "trench", side: $("side").value, level }, true);
}

$("new").addEventListener("click", newGame);
$("game").addEventListener("change", () => { selected = null; state = null; showGame($("game").value); drawBoard(); newGame(); });
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
  try { config = await api("/api/config"); } catch (err) { config = null; }
  showGame(config ? config.default_game : "trench");
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
