// The Merge steps player: plays a BPE training trace in the browser, no rerun per step.
//
// Python sends the whole trace once (ui/merge_steps/player.py builds it); this module draws step k:
// controls, the narration, the corpus with its current tokens (the new ones highlighted), the
// candidate pairs as bars (winner and ties marked), the merges so far and the vocabulary size.
// It reports the step back (setStateValue "settled": {step, seq}) only when the user settles on
// one, so the server reruns once per pause or click, never per animation frame.
//
// Whose step is it? The player's, while it is ahead of the server. Every move the user makes
// bumps a sequence number `seq`; a report carries it, and Python sends back the last one it
// heard. An answer with an older `seq` is a stale echo (the rerun for click 2 arriving after
// click 3) and is ignored; only a server that has heard every move may move the step itself
// (a link, a lesson file, a test).
//
// Keys: ← → step from anywhere on the page but a text box or a control that owns the arrows
// (a slider, tabs, a list); inside the player, Home, End, space and k work too.
//
// Words: every word it shows comes from Python in the session's language (`data.ui`: the
// catalog's templates, `{name}` filled here by `say`; the narration already said in full).
//
// Safety: every string from the trace (user text, tokens, sentences) is set with textContent;
// this file never uses innerHTML. Numbers go into style widths and SVG attributes only.

const STATES = new WeakMap();
const LIVE = new Set();  // every player built, for the page-wide keys (dropped once detached)
const BASE_INTERVAL_MS = 1400;
const SPEEDS = [0.5, 1, 2, 4];
const PALETTE = 8;
const SVG = "http://www.w3.org/2000/svg";

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function colourOf(token) {
  let h = 7;
  for (let i = 0; i < token.length; i++) h = (h * 31 + token.charCodeAt(i)) >>> 0;
  return h % PALETTE;
}

function fmt(n) {
  return Number(n).toLocaleString("en-US");  // Babel groups zh_CN the same way: 50,257
}

// A template from the catalog with its {names} filled (a name not given stays as written).
function say(template, values) {
  return String(template).replace(/\{(\w+)\}/g, (whole, name) =>
    values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole);
}

function chip(text, alphabet, isNew) {
  const node = el("span", "chip");
  const end = text.endsWith("</w>") && text.length > 4;
  if (end) {
    node.append(el("span", "", text.slice(0, -4)), el("span", "wend", "</w>"));
  } else {
    node.textContent = text;
  }
  if (!alphabet.has(text)) node.classList.add("p" + colourOf(text));
  if (text === "</w>") node.classList.add("wend-only");
  if (isNew) node.classList.add("new");
  return node;
}

function button(label, title, onClick, cls) {
  const node = el("button", cls || "btn", label);
  node.type = "button";
  node.title = title;
  node.setAttribute("aria-label", title);
  node.addEventListener("click", onClick);
  return node;
}

function build(host, data) {
  const state = {
    data, k: 0, playing: false, timer: null, speed: 1, reportTimer: null,
    serverStep: null, report: null, seq: 0,
  };
  const n = data.steps.length;
  const alphabet = new Set(data.alphabet);
  const T = data.ui;
  const root = el("div", "ms-player");
  root.lang = data.lang === "zh" ? "zh-CN" : "en";
  const plurals = new Intl.PluralRules(root.lang); // CLDR's categories, as Babel's in Python
  root.tabIndex = 0;
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", T.region);

  // --- controls ---------------------------------------------------------------------------
  const bar = el("div", "bar");
  const first = button("⏮", T.first, () => { stop(); move(0); settle(); });
  const prev = button(T.prev, T.prevTitle, () => { stop(); move(state.k - 1); settle(); });
  const play = button(T.play, T.playTitle, () => toggle(), "btn play");
  const next = button(T.next, T.nextTitle, () => { stop(); move(state.k + 1); settle(); });
  const last = button("⏭", T.last, () => { stop(); move(n); settle(); });
  const stepno = el("span", "stepno");
  stepno.setAttribute("aria-live", "polite");
  const slider = el("input", "slider");
  slider.type = "range";
  slider.min = "0";
  slider.max = String(n);
  slider.step = "1";
  slider.setAttribute("aria-label", T.slider);
  slider.addEventListener("input", () => { stop(); move(Number(slider.value)); });
  slider.addEventListener("change", () => settle());
  const speeds = el("span", "speeds");
  speeds.append(el("span", "speed-label", T.speed));
  const speedButtons = SPEEDS.map((s) => {
    const b = button(s + "×", say(T.speedTitle, { speed: s }), () => setSpeed(s), "btn speed");
    speeds.append(b);
    return b;
  });
  bar.append(first, prev, play, next, last, stepno, slider, speeds);

  // --- story ------------------------------------------------------------------------------
  const story = el("div", "story");
  const headline = el("div", "headline");
  const made = el("div", "made");
  const why = el("div", "why");
  story.append(headline, made, why);

  // --- corpus -----------------------------------------------------------------------------
  const grid = el("div", "grid");
  const corpusPanel = el("section", "panel corpus");
  const corpusHead = el("div", "panel-head");
  const corpusTitle = el("h3", "", T.corpus);
  const corpusMeta = el("span", "meta");
  corpusHead.append(corpusTitle, corpusMeta);
  const rows = el("div", "rows" + (data.level === "word" ? " with-label" : ""));
  const rowChips = data.entries.map((entry) => {
    const row = el("div", "row");
    if (data.level === "word") {
      const label = el("span", "label", entry.label);
      label.title = entry.label;  // the whole word on hover when it is cut short
      row.append(label);
    }
    row.append(el("span", "count", "×" + fmt(entry.count)));
    const chips = el("span", "chips");
    row.append(chips);
    rows.append(row);
    return { row, chips };
  });
  corpusPanel.append(corpusHead, rows);
  if (data.cut) {
    corpusPanel.append(el("div", "note cut", data.cut));  // the trace's size bound: what was left out
  } else if (data.hidden > 0) {
    corpusPanel.append(el("div", "note", data.hiddenNote));
  }

  // --- side: candidates, merges, vocabulary ------------------------------------------------
  const side = el("div", "side");
  const candPanel = el("section", "panel");
  const candTitle = el("h3", "", "");
  const bars = el("div", "bars");
  candPanel.append(candTitle, bars);
  const mergePanel = el("section", "panel");
  const mergeHead = el("div", "panel-head");
  const mergeMeta = el("span", "meta");
  mergeHead.append(el("h3", "", T.mergesSoFar), mergeMeta);
  const mergeBox = el("div", "merges");
  const mergeTable = el("table", "");
  const thead = el("thead");
  const headRow = el("tr");
  [T.colRank, T.colPair, T.colToken, T.colCount].forEach((h) => headRow.append(el("th", "", h)));
  thead.append(headRow);
  const tbody = el("tbody");
  mergeTable.append(thead, tbody);
  mergeBox.append(mergeTable);
  mergePanel.append(mergeHead, mergeBox);
  const vocabPanel = el("section", "panel");
  const vocabHead = el("div", "panel-head");
  const vocabMeta = el("span", "meta");
  vocabHead.append(el("h3", "", T.vocab), vocabMeta);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 400 90");
  svg.setAttribute("class", "vocab");
  svg.setAttribute("role", "img");
  vocabPanel.append(vocabHead, svg);
  const main = el("div", "side");
  main.append(corpusPanel, mergePanel);
  side.append(candPanel, vocabPanel);
  grid.append(main, side);

  root.append(bar, story, grid);
  if (data.stop) root.append(el("div", "note stop", data.stop));
  host.append(root);

  // --- the vocabulary chart (drawn once; the marker moves) ----------------------------------
  const sizes = [data.start.vocab, ...data.steps.map((s) => s.vocab)];
  const lo = Math.min(...sizes), hi = Math.max(...sizes);
  const x = (k) => 8 + (n ? (k / n) * 384 : 0);
  const y = (v) => 80 - (hi > lo ? ((v - lo) / (hi - lo)) * 68 : 34);
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", sizes.map((v, k) => x(k).toFixed(1) + "," + y(v).toFixed(1)).join(" "));
  line.setAttribute("class", "vline");
  const marker = document.createElementNS(SVG, "circle");
  marker.setAttribute("r", "6");
  marker.setAttribute("class", "vdot");
  svg.append(line, marker);

  // --- drawing step k -------------------------------------------------------------------------
  function partsAt(entry, k) {
    let parts = entry.parts, fresh = [];
    for (const [step, after, positions] of entry.history) {
      if (step > k) break;
      parts = after;
      fresh = step === k ? positions : [];
    }
    return [parts, new Set(fresh)];
  }

  function drawCandidates(k) {
    bars.replaceChildren();
    if (!n) {
      candTitle.textContent = T.noPair;
      return;
    }
    const s = data.steps[Math.max(k, 1) - 1];
    candTitle.textContent = k === 0 ? T.candsNow : say(T.candsBefore, { k: fmt(k) });
    const top = s.cands.length ? s.cands[0][1] : 1;
    for (const [label, count, flag] of s.cands) {
      const row = el("div", "brow" + (flag === 2 ? " winner" : flag === 1 ? " tie" : ""));
      row.append(el("span", "plabel", label));
      const track = el("span", "track");
      const fill = el("span", "fill");
      fill.style.width = Math.max(2, (100 * count) / top).toFixed(1) + "%";
      track.append(fill);
      row.append(track, el("span", "num", fmt(count)));
      row.append(el("span", "tag", flag === 2 ? (k === 0 ? T.tagNext : T.tagWon) : flag === 1 ? T.tagTie : ""));
      bars.append(row);
    }
    if (s.ties > 1) {
      const shownTies = s.cands.filter((c) => c[2] >= 1).length;
      if (s.ties > shownTies) {
        const more = s.ties - shownTies;
        const form = T.moreTies[plurals.select(more)] ?? T.moreTies.other;
        bars.append(el("div", "note", say(form, { n: fmt(more), count: fmt(top) })));
      }
    }
  }

  function drawMerges(k) {
    tbody.replaceChildren();
    if (k === 0) {
      const tr = el("tr", "empty");
      const td = el("td", "", T.noMerges);
      td.colSpan = 4;
      tr.append(td);
      tbody.append(tr);
    }
    for (let i = 0; i < k; i++) {
      const s = data.steps[i];
      const tr = el("tr", i === k - 1 ? "latest" : "");
      tr.append(el("td", "rank", i + 1));
      const pair = el("td", "pair");
      pair.append(chip(s.a, alphabet, false), el("span", "plus", "+"), chip(s.b, alphabet, false));
      const made = el("td", "");
      made.append(chip(s.token, alphabet, false));
      tr.append(pair, made, el("td", "num", fmt(s.count)));
      tbody.append(tr);
    }
    mergeMeta.textContent = say(T.mergesMeta, { k: fmt(k), n: fmt(n) });
    mergeBox.scrollTop = mergeBox.scrollHeight;
  }

  function show(k) {
    k = Math.max(0, Math.min(n, Math.round(Number(k) || 0)));
    state.k = k;
    slider.value = String(k);
    stepno.textContent = say(T.stepNo, { k: fmt(k), n: fmt(n) });
    root.dataset.step = String(k);
    first.disabled = prev.disabled = k === 0;
    next.disabled = last.disabled = k === n;
    const s = k > 0 ? data.steps[k - 1] : null;
    made.replaceChildren();
    if (s) {
      headline.textContent = say(T.headline, { k: fmt(k), narration: s.narration });
      made.append(el("span", "made-label", T.madeLabel), chip(s.a, alphabet, false),
        el("span", "plus", "+"), chip(s.b, alphabet, false), el("span", "arrow", "→"),
        chip(s.token, alphabet, true));
      why.textContent = s.why;
    } else {
      headline.textContent = data.start.narration;
      why.textContent = n ? say(T.hint, { pair: data.steps[0].pair }) : "";
    }
    data.entries.forEach((entry, e) => {
      const [parts, fresh] = partsAt(entry, k);
      const { row, chips } = rowChips[e];
      chips.replaceChildren(...parts.map((p, i) => chip(p, alphabet, fresh.has(i))));
      row.classList.toggle("touched", fresh.size > 0);
    });
    const tokens = s ? s.tokens : data.start.tokens;
    corpusMeta.textContent = k > 0
      ? say(T.tokensWas, { tokens: fmt(tokens), start: fmt(data.start.tokens) })
      : say(T.tokensNow, { tokens: fmt(tokens) });
    drawCandidates(k);
    drawMerges(k);
    const vocab = s ? s.vocab : data.start.vocab;
    vocabMeta.textContent = fmt(data.start.vocab) + " → " + fmt(vocab);
    marker.setAttribute("cx", x(k).toFixed(1));
    marker.setAttribute("cy", y(vocab).toFixed(1));
  }

  // A move the user made: the player owns the step until Python has heard of it.
  function move(k) {
    state.seq += 1;
    show(k);
  }

  // --- playing --------------------------------------------------------------------------------
  function tick() {
    if (!root.isConnected) { stop(); return; }
    if (state.k >= n) { stop(); settle(); return; }
    move(state.k + 1);
  }

  function startTimer() {
    clearInterval(state.timer);
    state.timer = setInterval(tick, BASE_INTERVAL_MS / state.speed);
  }

  function start() {
    if (!n) return;
    state.seq += 1;  // playing is a move: a rerun meanwhile must not pull the player back
    if (state.k >= n) show(0);
    state.playing = true;
    play.textContent = T.pause;
    play.setAttribute("aria-pressed", "true");
    root.dataset.playing = "1";
    startTimer();
  }

  function stop() {
    clearInterval(state.timer);
    state.timer = null;
    if (!state.playing) return;
    state.playing = false;
    play.textContent = T.play;
    play.setAttribute("aria-pressed", "false");
    root.dataset.playing = "0";
  }

  function toggle() {
    if (state.playing) { stop(); settle(); } else { start(); }
  }

  function setSpeed(s) {
    state.speed = s;
    speedButtons.forEach((b, i) => b.classList.toggle("on", SPEEDS[i] === s));
    if (state.playing) startTimer();
  }

  // Tell Python where we stopped (one rerun per settle, none while playing).
  function settle() {
    clearTimeout(state.reportTimer);
    state.reportTimer = setTimeout(() => {
      if (state.report && !state.playing && root.isConnected) {
        state.report("settled", { step: state.k, seq: state.seq });
      }
    }, 350);
  }

  // A key pressed on `target` (inside the player or not): true when the player took it.
  function onKey(event, target) {
    const inside = root.contains(target);
    if (target === slider && (event.key === "ArrowLeft" || event.key === "ArrowRight")) return false;
    if (target.tagName === "BUTTON" && (event.key === " " || event.key === "Enter")) return false;
    const keys = { ArrowRight: () => next.click(), ArrowLeft: () => prev.click() };
    if (inside) {
      Object.assign(keys, {
        Home: () => first.click(), End: () => last.click(), " ": () => toggle(), k: () => toggle(),
      });
    }
    if (!keys[event.key]) return false;
    event.preventDefault();
    keys[event.key]();
    return true;
  }

  setSpeed(1);
  root.dataset.playing = "0";
  play.setAttribute("aria-pressed", "false");  // a toggle that says whether it is pressed
  state.root = root;
  state.show = show;
  state.stop = stop;
  state.settle = settle;
  state.onKey = onKey;
  return state;
}

// --- keys anywhere on the page ------------------------------------------------------------------
// Roles whose widgets use the arrow keys themselves (Streamlit's sliders, tabs, radio groups,
// select lists): a key pressed there is theirs.
const OWN_ARROWS = new Set(["slider", "tab", "tablist", "radio", "radiogroup", "listbox", "option",
  "menu", "menuitem", "combobox", "spinbutton", "textbox", "grid", "gridcell", "treegrid"]);

function typedInto(node) {
  for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
    if (n.isContentEditable) return true;
    if (n.tagName === "INPUT" || n.tagName === "TEXTAREA" || n.tagName === "SELECT") return true;
    if (OWN_ARROWS.has(n.getAttribute("role"))) return true;
  }
  return false;
}

function pageKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  // subtle: composedPath()[0] is the element inside the player's shadow root; event.target is
  // retargeted to the shadow host at this level.
  const target = event.composedPath()[0] || event.target;
  for (const state of [...LIVE]) {
    if (!state.root.isConnected) { LIVE.delete(state); continue; }
    const inside = state.root.contains(target);
    if (!inside && (typedInto(target) || !state.root.getClientRects().length)) continue;  // hidden tab
    if (state.onKey(event, target)) return;
  }
}

// One listener for the page (this module may be evaluated again: replace, never add twice).
if (window.__tokexMergeStepsKeys) document.removeEventListener("keydown", window.__tokexMergeStepsKeys);
window.__tokexMergeStepsKeys = pageKey;
document.addEventListener("keydown", pageKey);

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  let state = STATES.get(parentElement);
  if (!state || state.id !== data.id) {
    const old = state;
    if (old) { old.stop(); old.root.remove(); LIVE.delete(old); }
    state = build(parentElement, JSON.parse(data.trace));  // parsed once per training
    state.id = data.id;
    state.seq = data.seq || 0;  // in step with the server: numbers go on from what it heard
    STATES.set(parentElement, state);
    LIVE.add(state);
    // subtle: a click can land on the old player while the new training is on its way (a
    // tie-break just changed); its report died with it. The move is the user's: the new player
    // takes it over and reports it, so no click is lost.
    if (old && old.seq > (old.serverSeq || 0)) {
      state.seq = Math.max(state.seq, old.seq);
      state.show(Math.min(old.k, state.data.steps.length));
      state.settle();
    } else {
      state.show(data.step);
    }
  } else if ((data.seq || 0) >= state.seq && data.step !== state.serverStep &&
             data.step !== state.k) {
    state.stop();  // the server heard every move and moved the step itself (a link, a test)
    state.show(data.step);
  }  // else an answer to an older move: the report on its way brings the server up to date
  state.serverStep = data.step;
  state.serverSeq = data.seq || 0;
  state.report = setStateValue;
  state.root.classList.toggle("big", Boolean(data.big));
  return () => {
    // Runs before every update too; only a player that has left the page stops for good.
    setTimeout(() => { if (!state.root.isConnected) state.stop(); }, 0);
  };
}
