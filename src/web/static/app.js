/* The pages of pdnkit serve: a game list, a game with its board, an opening explorer,
 * players and stats, all drawn from the JSON API under /api/. No library, nothing
 * fetched from elsewhere. Text from the store is only ever set as textContent. */
'use strict';
(function () {
  var NS = 'http://www.w3.org/2000/svg';
  /* a text saved as a file by the browser (the Download buttons) */
  function download(name, text) {
    var a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'application/x-pdn' }));
    a.download = name;
    document.body.appendChild(a); a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }
  var view = document.getElementById('view');
  var pending = null;
  var info = {};

  function h(tag, attrs, kids) {
    var e = document.createElement(tag);
    for (var a in attrs || {}) {
      if (a === 'text') e.textContent = attrs[a];
      else if (a === 'cls') e.className = attrs[a];
      else if (a.slice(0, 2) === 'on') e.addEventListener(a.slice(2), attrs[a]);
      else e.setAttribute(a, attrs[a]);
    }
    (kids || []).forEach(function (k) { if (k != null) e.appendChild(typeof k === 'string' ? document.createTextNode(k) : k); });
    return e;
  }
  function s(tag, attrs) {
    var e = document.createElementNS(NS, tag);
    for (var a in attrs || {}) e.setAttribute(a, attrs[a]);
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }
  function fmt(n) { return n == null ? '-' : String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
  function qs(o) {
    return Object.keys(o).filter(function (k) { return o[k] !== '' && o[k] != null; })
      .map(function (k) { return encodeURIComponent(k) + '=' + encodeURIComponent(o[k]); }).join('&');
  }
  function parseQs(str) {
    var o = {};
    (str || '').split('&').forEach(function (kv) {
      if (!kv) return;
      var i = kv.indexOf('='), k = i < 0 ? kv : kv.slice(0, i), v = i < 0 ? '' : kv.slice(i + 1);
      try { o[decodeURIComponent(k)] = decodeURIComponent(v.replace(/\+/g, ' ')); } catch (e) { /* a bad escape: skipped */ }
    });
    return o;
  }
  function api(call, params) {
    if (pending) pending.abort();
    var ctl = new AbortController();
    pending = ctl;
    return fetch('/api/' + call + '?' + qs(params || {}), { signal: ctl.signal }).then(function (r) {
      return r.json().then(function (j) {
        if (!r.ok) throw new Error(j.error || ('HTTP ' + r.status));
        return j;
      });
    });
  }
  /* a second request that must not cancel the page's own */
  function apiSide(call, params) {
    return fetch('/api/' + call + '?' + qs(params || {})).then(function (r) {
      return r.json().then(function (j) { if (!r.ok) throw new Error(j.error || ('HTTP ' + r.status)); return j; });
    });
  }
  function showError(where, err) {
    if (err && err.name === 'AbortError') return;
    clear(where).appendChild(h('p', { cls: 'error', text: String(err && err.message || err) }));
  }

  /* --- the board --- */
  /* English draughts' board; another variant's comes with its game (rows, cols, each
   * square's [row, col] from the top, its names) */
  var ENGLISH = { rows: 8, cols: 8, sq: [], names: [] };
  for (var q = 1; q <= 32; q++) {
    var rr = Math.floor((q - 1) / 4), kk = (q - 1) % 4;
    ENGLISH.sq.push([rr, rr % 2 === 0 ? 2 * kk + 1 : 2 * kk]); ENGLISH.names.push(String(q));
  }
  function xy(sq, flip, geo) {
    var p = geo.sq[sq - 1];
    return flip ? [geo.rows - 1 - p[0], geo.cols - 1 - p[1]] : [p[0], p[1]];
  }
  /* board: a character a square (b w men, B W kings, . empty); o.geo (default English),
   * o.flip, o.last (squares), o.onSquare(sq), o.marks {sel: sq, dests: [sq]}, o.size (pixels) */
  function drawBoard(board, o) {
    o = o || {};
    var geo = o.geo || ENGLISH, z = 45, dark = {};
    geo.sq.forEach(function (p) { dark[p[0] * 100 + p[1]] = true; });
    var svg = s('svg', { viewBox: '0 0 ' + geo.cols * z + ' ' + geo.rows * z, 'class': 'board' + (o.cls ? ' ' + o.cls : ''), role: 'img' });
    svg.appendChild(s('title')).textContent = 'board';
    for (var r = 0; r < geo.rows; r++)
      for (var c = 0; c < geo.cols; c++) {
        var rf = o.flip ? geo.rows - 1 - r : r, cf = o.flip ? geo.cols - 1 - c : c;
        svg.appendChild(s('rect', { x: c * z, y: r * z, width: z, height: z, fill: dark[rf * 100 + cf] ? '#7a9a6b' : '#f3ead7' }));
      }
    for (var sq = 1; sq <= geo.sq.length; sq++) {
      var p = xy(sq, o.flip, geo), x = p[1] * z, y = p[0] * z;
      var cell = s('rect', { x: x, y: y, width: z, height: z, fill: 'transparent', 'class': 'sq', 'data-sq': sq });
      if (o.last && o.last.indexOf(sq) >= 0) svg.appendChild(s('rect', { x: x, y: y, width: z, height: z, 'class': 'last' }));
      if (o.marks && o.marks.dests && o.marks.dests.indexOf(sq) >= 0)
        svg.appendChild(s('circle', { cx: x + z / 2, cy: y + z / 2, r: 9, 'class': 'dest' }));
      var ch = board.charAt(sq - 1);
      if (ch !== '.') {
        var dk = ch === 'b' || ch === 'B';
        svg.appendChild(s('circle', { cx: x + z / 2, cy: y + z / 2, r: 17, fill: dk ? '#222' : '#f4efe3',
          stroke: dk ? '#000' : '#8c836f', 'stroke-width': 1.5 }));
        if (ch === 'B' || ch === 'W')
          svg.appendChild(s('circle', { cx: x + z / 2, cy: y + z / 2, r: 7, fill: '#d4a72c' }));
      }
      /* every board numbered, a small one in a larger type (it is drawn at half the size) */
      var t = s('text', { x: x + 3, y: y + (o.small ? 16 : 11), 'font-size': o.small ? 15 : 9, fill: '#e9efe4',
        'font-family': 'Helvetica, Arial, sans-serif', 'class': 'num' });
      t.textContent = geo.names[sq - 1];
      svg.appendChild(t);
      if (o.marks && o.marks.sel === sq)
        svg.appendChild(s('rect', { x: x + 2, y: y + 2, width: z - 4, height: z - 4, 'class': 'sel' }));
      if (o.onSquare) {
        if (o.can && o.can.indexOf(sq) >= 0) cell.setAttribute('class', 'sq can');
        cell.addEventListener('click', (function (q) { return function () { o.onSquare(q); }; })(sq));
      }
      svg.appendChild(cell);
    }
    if (o.small) svg.setAttribute('class', 'board mini');
    return svg;
  }
  function resultBar(bw, dr, ww) {
    var t = bw + dr + ww || 1;
    return h('div', { cls: 'bar-res', title: bw + ' Black wins, ' + dr + ' draws, ' + ww + ' White wins' }, [
      (function () { var e = h('span', { cls: 'bw' }); e.style.width = (100 * bw / t) + '%'; return e; })(),
      (function () { var e = h('span', { cls: 'dr' }); e.style.width = (100 * dr / t) + '%'; return e; })(),
      (function () { var e = h('span', { cls: 'ww' }); e.style.width = (100 * ww / t) + '%'; return e; })()
    ]);
  }

  /* --- games --- */
  var FILTERS = ['player', 'black', 'white', 'event', 'site', 'result', 'from', 'to', 'opening', 'fen', 'moves', 'variant'];
  function gamesPage(q) {
    clear(view);
    var form = h('form', { cls: 'filters', id: 'filters' });
    function field(name, label, wide) {
      return h('label', {}, [label, h('input', { name: name, value: q[name] || '', cls: wide ? 'wide' : '' })]);
    }
    var res = h('select', { name: 'result' });
    /* "1-0": the side that moves first won (Black in English draughts, White in most others) */
    var firstBlack = !q.variant || q.variant === 'english' || q.variant === '21';
    [['', 'any'], ['1-0', '1-0 (' + (firstBlack ? 'Black' : 'White') + ' won)'], ['0-1', '0-1 (' + (firstBlack ? 'White' : 'Black') + ' won)'],
      ['1/2-1/2', 'draw'], ['*', 'unknown']].forEach(function (o) {
      var opt = h('option', { value: o[0], text: o[1] });
      if ((q.result || '') === o[0]) opt.selected = true;
      res.appendChild(opt);
    });
    [field('player', 'player'), field('event', 'event'), h('label', {}, ['result', res]), field('from', 'from (YYYY)'),
      field('to', 'to'), firstBlack ? field('opening', 'opening moves', true) : null,
      h('button', { type: 'submit', text: 'Find' })].forEach(function (e) { if (e) form.appendChild(e); });
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var n = {};
      FILTERS.forEach(function (k) { if (form.elements[k] && form.elements[k].value) n[k] = form.elements[k].value; else if (q[k] && !form.elements[k]) n[k] = q[k]; });
      if (q.order) { n.order = q.order; if (q.desc) n.desc = q.desc; }
      location.hash = '#/games?' + qs(n);
    });
    view.appendChild(h('h1', { text: 'Games' }));
    if (q.fen || q.moves) view.appendChild(h('p', { cls: 'muted', text: 'Reaching the position ' + (q.fen || ('after ' + q.moves)) }));
    view.appendChild(form);
    var out = h('div', { id: 'games' }, [h('p', { cls: 'muted', text: 'Loading...' })]);
    view.appendChild(out);
    var params = {};
    FILTERS.concat(['order', 'desc', 'offset']).forEach(function (k) { if (q[k]) params[k] = q[k]; });
    params.limit = 50;
    api('games', params).then(function (d) {
      clear(out);
      var off = d.offset, shown = d.games.length;
      var pager = h('div', { cls: 'pager' }, [
        h('span', { id: 'count', text: d.count ? fmt(off + 1) + '\u2013' + fmt(off + shown) + ' of ' + fmt(d.count) + ' games' : 'No game matches.' })]);
      function go(o) { var n = Object.assign({}, q); n.offset = o > 0 ? o : ''; location.hash = '#/games?' + qs(n); }
      if (off > 0) pager.appendChild(h('button', { text: '\u2039 previous', onclick: function () { go(off - 50); } }));
      if (off + shown < d.count) pager.appendChild(h('button', { text: 'next \u203a', id: 'next', onclick: function () { go(off + 50); } }));
      /* every game of the list as one PDN file (as pdnkit export; at most 5,000) */
      if (d.count) pager.appendChild(h('button', { text: 'Download PDN', id: 'download', title: 'the ' + fmt(Math.min(d.count, 5000)) + ' games of this list as a PDN file', onclick: function () {
        var ep = {};
        FILTERS.forEach(function (k) { if (q[k]) ep[k] = q[k]; });
        api('export', ep).then(function (x) { download('games.pdn', x.pdn); }).catch(function (e) { showError(out, e); });
      } }));
      out.appendChild(pager);
      /* the store holds games of several variants: choose among them */
      if (d.variants && d.variants.length > 1) {
        var vs = h('select', { name: 'variant', id: 'variant' });
        d.variants.forEach(function (v) {
          var opt = h('option', { value: v.key === 'english' ? '' : v.key, text: v.name + ' (' + fmt(v.games) + ')' });
          if ((q.variant || '') === (v.key === 'english' ? '' : v.key)) opt.selected = true;
          vs.appendChild(opt);
        });
        vs.addEventListener('change', function () {
          var n = Object.assign({}, q);
          n.variant = vs.value; n.offset = ''; n.opening = ''; n.fen = ''; n.moves = ''; n.order = ''; n.desc = '';
          location.hash = '#/games?' + qs(n);
        });
        form.insertBefore(h('label', {}, ['variant', vs]), form.firstChild);
      }
      if (!shown) return;
      var cols = [['id', '#'], ['date', 'date'], ['event', 'event'], ['black', 'Black'], ['white', 'White'], ['result', 'result'], ['plies', 'plies']];
      var tr = h('tr');
      cols.forEach(function (c) {
        var on = (q.order || 'id') === c[0];
        tr.appendChild(h('th', { cls: 'sort' + (c[0] === 'event' || c[0] === 'black' || c[0] === 'white' ? ' l' : '') + (on ? ' on' : '') + (on && q.desc ? ' desc' : ''),
          text: c[1], onclick: function () { var n = Object.assign({}, q); n.order = c[0]; n.desc = on && !q.desc ? '1' : ''; n.offset = ''; location.hash = '#/games?' + qs(n); } }));
      });
      var table = h('table', { cls: 'list' }, [h('thead', {}, [tr])]);
      var tb = h('tbody');
      d.games.forEach(function (g) {
        var row = h('tr', { cls: 'row', 'data-id': g.id, onclick: function () { location.hash = '#/game/' + g.id; } }, [
          h('td', { cls: 'c-id', text: String(g.id) }), h('td', { cls: 'c-date', text: g.date || '?' }),
          h('td', { cls: 'l c-event', text: g.event || '' }),
          h('td', { cls: 'l c-black', text: g.black || '?' }), h('td', { cls: 'l c-white', text: g.white || '?' }),
          h('td', { cls: 'c-result', text: g.result }), h('td', { cls: 'c-plies', text: String(g.plies) })]);
        tb.appendChild(row);
      });
      table.appendChild(tb);
      out.appendChild(table);
    }).catch(function (e) { showError(out, e); });
  }

  /* --- one game --- */
  var MARK = { blunder: '??', mistake: '?', inaccuracy: '?!', only: '!' };
  function gamePage(id) {
    clear(view).appendChild(h('p', { cls: 'muted', text: 'Loading game ' + id + '...' }));
    api('game', { id: id }).then(function (g) { showGame(g); }).catch(function (e) { showError(view, e); });
  }
  function showGame(g) {
    clear(view);
    /* the side that moves first: Black in English draughts, most often White in the others */
    var first = g.first || 'black', geo = g.board || ENGLISH, english = !g.board;
    var title = first === 'black' ? (g.black || '?') + ' \u2013 ' + (g.white || '?') : (g.white || '?') + ' \u2013 ' + (g.black || '?');
    document.title = title + ' \u00b7 pdnkit';
    view.appendChild(h('h1', { text: title }));
    view.appendChild(h('p', { cls: 'meta', text: [g.event, g.site, g.date, g.round ? 'round ' + g.round : null, g.opening, g.result, g.plies + ' plies']
      .filter(function (x) { return x; }).join(' \u00b7 ') }));
    if (!g.positions) {
      view.appendChild(h('p', { cls: 'muted', text: 'A game of another variant (GameType ' + g.gametype + '): its PDN below.' }));
      view.appendChild(h('textarea', { cls: 'pdn', readonly: 'readonly' }, [g.pdn]));
      return;
    }
    var notes = {};
    (g.annotation ? g.annotation.moves : []).forEach(function (a) { notes[a.ply] = a; });
    var ply = 0, flip = false, n = g.moves.length;
    var split = h('div', { cls: 'split' }), left = h('div', { cls: 'left' }), right = h('div', { cls: 'right' });
    split.appendChild(left); split.appendChild(right); view.appendChild(split);
    var boardBox = h('div', { id: 'board' }), label = h('span', { id: 'ply' });
    var controls = h('div', { cls: 'controls' }, [
      h('button', { text: '\u00ab', title: 'start (Home)', onclick: function () { go(0); } }),
      h('button', { text: '\u2039', title: 'back (\u2190)', onclick: function () { go(ply - 1); } }),
      h('button', { text: '\u203a', title: 'forward (\u2192)', onclick: function () { go(ply + 1); } }),
      h('button', { text: '\u00bb', title: 'end (End)', onclick: function () { go(n); } }),
      h('button', { text: 'flip', title: 'flip the board (f)', onclick: function () { flip = !flip; go(ply); } }), label]);
    var explore = h('a', { id: 'explore', text: 'explore this position' });
    var analyse = h('div', { cls: 'analysis' });
    /* the moves to a variation's move: the main line to the move its line replaces (or
     * the line it branches from, for a line inside a line), then its own */
    function movesOfVar(node) {
      var start = node.parent ? movesOfVar(node.parent).slice(0, -1) : g.moves.slice(0, node.main - 1).map(function (m) { return m.move; });
      return start.concat(node.line.slice(0, node.k + 1).map(function (x) { return x.v.move.replace(/[!?]+$/, ''); }));
    }
    function here() {
      var mv = inVar ? movesOfVar(inVar).join(' ') : movesTo(ply);
      return english ? { moves: mv } : { moves: mv, variant: g.variant };
    }
    /* a new position: the analysis under way, if any, goes on with it */
    function moved() {
      var was = analysing && analysing.btn === abtn;
      stopAnalysis();
      clear(analyse);
      if (was) runAnalysis(analyse, here(), abtn);
    }
    var abtn = analysisButton(analyse, here);
    left.appendChild(boardBox); left.appendChild(controls);
    left.appendChild(h('p', { cls: 'kv' }, [explore, ' \u00b7 ', abtn]));
    left.appendChild(analyse);
    function movesTo(p) { return g.moves.slice(0, p).map(function (m) { return m.move; }).join(' '); }
    var movesBox = h('p', { cls: 'moves' });
    g.comment.forEach(function (c) { movesBox.appendChild(h('span', { cls: 'c', text: '{' + c + '}' })); });
    var spans = [], varSpans = [], inVar = null;
    g.moves.forEach(function (m, i) {
      /* a move number and its move never part at the end of a line, nor a move in itself */
      var pair = h('span', { cls: 'pair' });
      if (m.side === first || i === 0) pair.appendChild(h('span', { cls: 'n', text: m.number + (m.side === first ? '.' : '...') }));
      var a = notes[m.ply], cls = a ? a['class'] : '';
      var sp = h('span', { cls: 'm ' + cls, 'data-ply': m.ply, text: m.move + (MARK[cls] || ''),
        title: a && a.best ? 'best ' + a.best + ', loss ' + (a.loss / 100).toFixed(2) : '' });
      sp.addEventListener('click', function () { go(m.ply); });
      spans.push(sp);
      pair.appendChild(sp);
      movesBox.appendChild(pair); movesBox.appendChild(document.createTextNode(' '));
      m.comments.forEach(function (c) { movesBox.appendChild(h('span', { cls: 'c', text: '{' + c + '}' })); });
      if (m.vars) showVars(movesBox, m.vars, m.ply, 1);
    });
    movesBox.appendChild(h('span', { cls: 'result', text: g.result }));
    var chart = g.annotation ? graph(g, first, function (p) { go(p); }) : null;
    if (chart) right.appendChild(chart);
    else if (info.annotate) {
      var note = h('p', { cls: 'muted' });
      note.appendChild(h('button', { text: 'Annotate this game', id: 'annotate', onclick: function () {
        clear(note).appendChild(document.createTextNode('Annotating...'));
        fetch('/api/annotate?id=' + g.id, { method: 'POST', headers: { 'X-Pdnkit': '1' } }).then(function (r) {
          return r.json().then(function (j) { if (!r.ok) throw new Error(j.error); return j; });
        }).then(function () { gamePage(g.id); }).catch(function (e) { showError(note, e); });
      } }));
      right.appendChild(note);
    } else right.appendChild(h('p', { cls: 'muted', text: 'Not annotated: pdnkit annotate --db ... --event ... adds scores and classes (or serve --allow-write, then a button here).' }));
    right.appendChild(movesBox);
    /* The variations: each line in parentheses after the move it replaces, its moves
     * clickable; a variation's move shown on the board, \u2190 and \u2192 then step along
     * its line (back past its first move: the main line before the move replaced). */
    function showVars(box, lines, mainPly, depth, parent) {
      lines.forEach(function (line) {
        var par = h('span', { cls: 'var d' + Math.min(depth, 3) });
        par.appendChild(document.createTextNode('('));
        var nodes = [];
        line.forEach(function (v, k) {
          var num = v.side === first || k === 0 ? v.number + (v.side === first ? '. ' : '... ') : '';
          if (num) par.appendChild(h('span', { cls: 'n', text: num }));
          var sp = h('span', { cls: 'vm' + (v.illegal ? ' illegal' : ''), text: v.move,
            title: v.illegal ? 'not legal here: the line cannot be followed past it' : '' });
          var node = { v: v, sp: sp, main: mainPly, line: nodes, k: k, parent: parent };
          nodes.push(node);
          if (!v.illegal) {
            sp.addEventListener('click', function () { goVar(node); });
            varSpans.push(sp);
          }
          par.appendChild(sp);
          par.appendChild(document.createTextNode(' '));
          (v.comments || []).forEach(function (c) { par.appendChild(h('span', { cls: 'c', text: '{' + c + '}' })); });
          if (v.vars) showVars(par, v.vars, mainPly, depth + 1, node);
        });
        par.appendChild(document.createTextNode(')'));
        box.appendChild(par); box.appendChild(document.createTextNode(' '));
      });
    }
    function goVar(node) {
      inVar = node;
      clear(boardBox).appendChild(drawBoard(node.v.board, { geo: geo, flip: flip, last: node.v.last }));
      label.textContent = ' variation: ' + node.v.number + (node.v.side === first ? '. ' : '... ') + node.v.move +
        ' (instead of ' + g.moves[node.main - 1].number + (g.moves[node.main - 1].side === first ? '. ' : '... ') + g.moves[node.main - 1].move + ')';
      spans.forEach(function (e) { e.classList.remove('cur'); });
      varSpans.forEach(function (e) { e.classList.toggle('cur', e === node.sp); });
      moved();
    }
    function stepVar(d) {
      var k = inVar.k + d, line = inVar.line;
      if (k < 0) { var back = inVar.main - 1; inVar = null; go(back); return; }
      if (k < line.length && !line[k].v.illegal) goVar(line[k]);
    }
    function go(p) {
      inVar = null;
      varSpans.forEach(function (e) { e.classList.remove('cur'); });
      ply = Math.max(0, Math.min(n, p));
      var last = ply > 0 ? [g.moves[ply - 1].from].concat(g.moves[ply - 1].path) : null;
      clear(boardBox).appendChild(drawBoard(g.positions[ply], { geo: geo, flip: flip, last: last }));
      /* who is to move, at which move number */
      var nxt = g.moves[ply], side = nxt ? nxt.side : (n ? (g.moves[n - 1].side === 'black' ? 'white' : 'black') : first);
      label.textContent = ' ' + (nxt ? 'move ' + nxt.number + ', ' + (side === 'black' ? 'Black' : 'White') + ' to move'
        : 'the end: ' + g.result) + ' \u00b7 ply ' + ply + ' of ' + n;
      if (chart) chart.setPly(ply);
      spans.forEach(function (e, i) { e.classList.toggle('cur', i + 1 === ply); });
      explore.setAttribute('href', '#/explorer?' + qs(english ? { moves: movesTo(ply) } : { moves: movesTo(ply), variant: g.variant }));
      moved();
    }
    document.onkeydown = function (ev) {
      if (ev.target && (ev.target.tagName === 'INPUT' || ev.target.tagName === 'TEXTAREA')) return;
      if (inVar && (ev.key === 'ArrowRight' || ev.key === 'ArrowLeft')) stepVar(ev.key === 'ArrowRight' ? 1 : -1);
      else if (ev.key === 'ArrowRight') go(ply + 1); else if (ev.key === 'ArrowLeft') go(ply - 1);
      else if (ev.key === 'Home') go(0); else if (ev.key === 'End') go(n);
      else if (ev.key === 'f') { flip = !flip; go(ply); } else return;
      ev.preventDefault();
    };
    go(0);
    /* the position before each mistake */
    var figs = h('div', { cls: 'figs' });
    g.moves.forEach(function (m, i) {
      var a = notes[m.ply];
      if (!a || (a['class'] !== 'blunder' && a['class'] !== 'mistake')) return;
      var fig = h('figure', {}, [drawBoard(g.positions[i], { geo: geo, small: true, last: [m.from].concat(m.path) }),
        h('figcaption', { text: m.number + (m.side === first ? '. ' : '... ') + m.move + MARK[a['class']] +
          (a.best ? ' (best ' + a.best + ', loss ' + (a.loss / 100).toFixed(2) + ')' : '') })]);
      fig.addEventListener('click', function () { go(i); });
      figs.appendChild(fig);
    });
    if (figs.firstChild) { right.appendChild(h('h3', { text: 'Before each mistake' })); right.appendChild(figs); }
    var ta = h('textarea', { cls: 'pdn', readonly: 'readonly', id: 'pdn' }, [g.pdn]);
    right.appendChild(h('h3', { text: 'PDN' }));
    right.appendChild(ta);
    right.appendChild(h('button', { text: 'Copy', onclick: function () {
      ta.select();
      if (navigator.clipboard) navigator.clipboard.writeText(g.pdn).catch(function () { document.execCommand('copy'); });
      else document.execCommand('copy');
    } }));
    right.appendChild(h('button', { text: 'Download', id: 'download-game', title: 'this game as a PDN file', onclick: function () {
      download('game-' + g.id + '.pdn', g.pdn);
    } }));
    var tags = h('table', {}, g.tags.map(function (t) { return h('tr', {}, [h('td', { text: t[0] }), h('td', { cls: 'l', text: t[1] })]); }));
    right.appendChild(h('h3', { text: 'Tags' }));
    right.appendChild(tags);
  }
  /* the score after each move from the first mover's side, clamped to +-5 men, with its
   * axes (men up for that side; move numbers) and the marked moves on the curve */
  function graph(g, first, onPly) {
    var n = g.moves.length, L = 34, B = 18, w = 600, hh = 150, top = 6, ph = hh - B - top, mid = top + ph / 2;
    var pw = w - L - 4, X = function (p) { return L + p * pw / Math.max(1, n); };
    var Y = function (v) { return mid - Math.max(-500, Math.min(500, v)) * (ph / 2) / 500; };
    var F = first === 'black' ? 'Black' : 'White';
    var svg = s('svg', { viewBox: '0 0 ' + w + ' ' + hh, 'class': 'graph-eval', role: 'img' });
    svg.appendChild(s('title')).textContent = 'evaluation after each move, in men, ' + F + ' up';
    svg.appendChild(s('rect', { x: L, y: top, width: pw, height: ph, fill: '#fff', stroke: '#e2ddd2' }));
    /* the score axis: men for the first mover */
    [500, 250, 0, -250, -500].forEach(function (v) {
      svg.appendChild(s('line', { x1: L, y1: Y(v), x2: L + pw, y2: Y(v), stroke: v ? '#eee' : '#bbb' }));
      var t = s('text', { x: L - 4, y: Y(v) + 4, 'text-anchor': 'end', 'class': 'axis' });
      t.textContent = v > 0 ? '+' + v / 100 : String(v / 100);
      svg.appendChild(t);
    });
    var yl = s('text', { x: 10, y: mid, 'class': 'axis', transform: 'rotate(-90 10 ' + mid + ')', 'text-anchor': 'middle' });
    yl.textContent = F + ' up';
    svg.appendChild(yl);
    /* the move axis: a tick every 10 moves (5 in short games) */
    var moves = Math.ceil(n / 2), step = moves > 30 ? 10 : 5;
    for (var k = step; k <= moves; k += step) {
      var x = X(2 * k - 1);
      svg.appendChild(s('line', { x1: x, y1: top + ph, x2: x, y2: top + ph + 4, stroke: '#999' }));
      var t = s('text', { x: x, y: hh - 4, 'text-anchor': 'middle', 'class': 'axis' });
      t.textContent = String(k);
      svg.appendChild(t);
    }
    var at = {};
    var pts = [[X(0), mid]];
    var notes = g.annotation.moves;
    notes.forEach(function (a) {
      if (a.score_played == null) return;
      var v = a.side === first ? a.score_played : -a.score_played;
      at[a.ply] = Y(v);
      pts.push([X(a.ply), Y(v)]);
    });
    svg.appendChild(s('polyline', { points: pts.map(function (p) { return p[0].toFixed(1) + ',' + p[1].toFixed(1); }).join(' '),
      fill: 'none', stroke: '#2e6fb7', 'stroke-width': 2 }));
    var cur = s('line', { x1: X(0), y1: top, x2: X(0), y2: top + ph, stroke: '#555', 'stroke-dasharray': '3 3', 'class': 'cur-ply' });
    svg.appendChild(cur);
    notes.forEach(function (a) {
      var col = { blunder: '#c0392b', mistake: '#e67e22', inaccuracy: '#c9a227' }[a['class']];
      if (!col) return;
      var c = s('circle', { cx: X(a.ply).toFixed(1), cy: (at[a.ply] != null ? at[a.ply] : mid).toFixed(1), r: 5, fill: col, 'class': 'mark' });
      c.appendChild(s('title')).textContent = 'ply ' + a.ply + ': ' + a.move + ' ' + a['class'];
      c.addEventListener('click', function () { onPly(a.ply - 1); });
      svg.appendChild(c);
    });
    svg.addEventListener('click', function (ev) {
      if (ev.target.tagName === 'circle') return;
      var r = svg.getBoundingClientRect(), x = (ev.clientX - r.left) / r.width * w;
      onPly(Math.round((x - L) / pw * n));
    });
    svg.setPly = function (p) { cur.setAttribute('x1', X(p)); cur.setAttribute('x2', X(p)); };
    return svg;
  }
  /* The engine's analysis of a position, as a player uses it: continuous (searches of
   * 1, 2, 4 ... seconds, up to the server's most, each shown when done), three lines (the
   * best first moves, each with its score and line), until stopped: by the button, by
   * another position (its own analysis then starts), or by leaving the page (the search
   * under way is cancelled: the server stops it). */
  var analysing = null;
  function stopAnalysis() {
    if (!analysing) return;
    analysing.ctl.abort();
    if (analysing.btn) analysing.btn.textContent = analysing.label;
    analysing = null;
  }
  window.addEventListener('hashchange', stopAnalysis);
  function lineText(a) {
    return a.win_in != null ? (a.win_in > 0 ? 'wins in ' + a.win_in : 'loses in ' + (-a.win_in)) : ((a.score >= 0 ? '+' : '') + (a.score / 100).toFixed(2));
  }
  /* opts.each: every legal move searched alone (the explorer's column), opts.onResult
   * called with each answer */
  function runAnalysis(box, pos, btn, opts) {
    opts = opts || {};
    stopAnalysis();
    var run = { ctl: new AbortController(), btn: btn, label: btn ? btn.textContent : '' };
    analysing = run;
    if (btn) btn.textContent = 'Stop';
    clear(box).appendChild(h('span', { cls: 'muted', text: 'Searching...' }));
    var most = info.max_time || 10;
    function step(secs, tries) {
      var args = opts.each ? { time: Math.min(secs, most), each: 1 } : { time: Math.min(secs, most), lines: 3 };
      fetch('/api/analyse?' + qs(Object.assign(args, pos)), { signal: run.ctl.signal }).then(function (r) {
        return r.json().then(function (j) {
          /* the engine still busy with the search just left (the server stops it within
           * a moment): asked again shortly */
          if (r.status === 503 && /busy/.test(j.error || '') && (tries || 0) < 40) return { retry: true };
          if (!r.ok) throw new Error(j.error || ('HTTP ' + r.status));
          return j;
        });
      }).then(function (a) {
        if (analysing !== run) return;
        if (a.retry) { setTimeout(function () { if (analysing === run) step(secs, (tries || 0) + 1); }, 150); return; }
        clear(box);
        if (!a.best) { box.appendChild(h('span', { text: a.result })); stopAnalysis(); return; }
        var head = 'depth ' + a.depth + ' \u00b7 ' + fmt(a.lines.reduce(function (s, l) { return s + l.nodes; }, 0)) + ' nodes \u00b7 ' +
          Math.min(secs, most) + ' s' + (secs < most && !a.forced ? ' \u00b7 searching deeper...' : '');
        box.appendChild(h('div', { cls: 'muted', text: head }));
        if (opts.onResult) opts.onResult(a);
        var ol = h('ol', { cls: 'lines' });
        a.lines.slice(0, 3).forEach(function (l) {
          ol.appendChild(h('li', {}, [h('b', { text: l.best }), ' ' + lineText(l) + ' ', h('span', { cls: 'muted', text: l.pv.slice(1).join(' ') })]));
        });
        box.appendChild(ol);
        box.appendChild(h('div', { cls: 'muted', text: 'scores for the side to move, in men' }));
        if (a.egdb) box.appendChild(h('div', { text: 'Databases: ' + a.egdb.value + (a.egdb.plies != null ? ' in ' + a.egdb.plies + ' plies' : '') }));
        if (secs < most && !a.forced) step(secs * 2); else stopAnalysis();
      }).catch(function (e) { if (analysing === run) { stopAnalysis(); showError(box, e); } });
    }
    step(1);
  }
  /* a button that starts the analysis of what pos() gives, and stops it */
  function analysisButton(box, pos, opts) {
    var btn = h('button', { text: 'Analyse', cls: 'analyse', title: opts && opts.each ?
      'the engine thinks on this position until stopped: every move\'s value, the three best lines' :
      'the engine thinks on this position until stopped: three lines' });
    btn.addEventListener('click', function () {
      if (analysing && analysing.btn === btn) stopAnalysis(); else runAnalysis(box, pos(), btn, opts);
    });
    return btn;
  }

  /* --- explorer --- */
  function explorerPage(q) {
    clear(view);
    view.appendChild(h('h1', { text: 'Opening explorer' }));
    var split = h('div', { cls: 'split' }), left = h('div', { cls: 'left' }), right = h('div', { cls: 'right' });
    split.appendChild(left); split.appendChild(right); view.appendChild(split);
    var pos = {};
    if (q.fen) pos.fen = q.fen; else if (q.moves) pos.moves = q.moves;
    if (q.variant) pos.variant = q.variant;
    /* the variant kept in every link of the page */
    function withV(o) { if (q.variant) o.variant = q.variant; return o; }
    var trail = q.moves ? q.moves : '';
    right.appendChild(h('p', { cls: 'muted', text: 'Loading...' }));
    api('explorer', pos).then(function (d) {
      var sel = null;
      var boardBox = h('div', { id: 'board' });
      function redraw() {
        var dests = sel ? d.moves.filter(function (m) { return m.from === sel; }).map(function (m) { return m.path[m.path.length - 1]; }) : [];
        clear(boardBox).appendChild(drawBoard(d.board, { geo: d.geometry, marks: { sel: sel, dests: dests },
          can: d.moves.map(function (m) { return m.from; }).concat(dests), onSquare: click }));
      }
      function play(m) {
        if (d.fen && !q.moves && q.fen) location.hash = '#/explorer?' + qs(withV({ fen: m.fen }));
        else location.hash = '#/explorer?' + qs(withV({ moves: (trail ? trail + ' ' : '') + m.move }));
      }
      function click(sq) {
        var from = d.moves.filter(function (m) { return m.from === sq; });
        if (from.length) { sel = sq; redraw(); return; }
        if (sel) {
          var to = d.moves.filter(function (m) { return m.from === sel && m.path[m.path.length - 1] === sq; });
          if (to.length) { play(to[0]); return; }
        }
        sel = null; redraw();
      }
      redraw();
      left.appendChild(boardBox);
      left.appendChild(h('p', { cls: 'kv', id: 'turn', text: d.turn === 'black' ? 'Black to move' : 'White to move' }));
      if (d.opening) left.appendChild(h('p', { cls: 'kv' }, [h('b', { text: 'opening' }), h('span', { id: 'opening', text: d.opening })]));
      if (trail) left.appendChild(h('p', { cls: 'kv' }, [h('b', { text: 'moves' }), trail]));
      var fenIn = h('input', { cls: 'fen', id: 'fen', value: d.fen, 'aria-label': 'FEN' });
      left.appendChild(h('form', { onsubmit: function (ev) { ev.preventDefault(); location.hash = '#/explorer?' + qs(withV({ fen: fenIn.value.trim() })); } },
        [fenIn, h('button', { type: 'submit', text: 'Set position' }), h('a', { href: '#/explorer' + (q.variant ? '?' + qs({ variant: q.variant }) : ''), text: ' start' })]));
      if (trail) {
        var back = trail.split(' ').slice(0, -1).join(' ');
        left.appendChild(h('p', {}, [h('a', { href: '#/explorer?' + qs(withV({ moves: back })), text: '\u2039 take back' })]));
      }
      if (d.egdb) left.appendChild(h('p', { cls: 'kv' }, [h('b', { text: 'databases' }), d.egdb.value + ' for the side to move' + (d.egdb.plies != null ? ' in ' + d.egdb.plies + ' plies' : '')]));
      var analyse = h('div', { cls: 'analysis' });
      /* the engine's value of each move, in a column of the table, for the side to move */
      var engineCells = {};
      left.appendChild(analysisButton(analyse, function () { return pos; }, { each: true, onResult: function (a) {
        a.lines.forEach(function (l) {
          var c = engineCells[l.best];
          if (c) { c.textContent = lineText(l); c.title = 'depth ' + l.depth + ': ' + l.pv.join(' '); }
        });
      } }));
      left.appendChild(analyse);
      clear(right);
      right.appendChild(h('p', { cls: 'kv' }, [h('b', { text: 'games' }), h('a', { id: 'games-here', href: '#/games?' + qs(withV(pos.fen ? { fen: pos.fen } : pos.moves ? { moves: pos.moves } : { fen: d.fen })) , text: fmt(d.games) }),
        d.ended ? ' (' + fmt(d.ended) + ' ended here)' : '']));
      /* results by the side that moves first ("1-0" is its win): Black in English
       * draughts, White in International */
      var F = d.first === 'white' ? 'White' : 'Black';
      var tb = h('tbody');
      /* each move's value in the endgame databases, for the side that plays it */
      var withDb = d.moves.some(function (m) { return m.egdb; });
      var S = d.turn === 'black' ? 'Black' : 'White';
      d.moves.forEach(function (m) {
        var t = m.black_wins + m.white_wins + m.draws;
        var cells = [
          h('td', { text: m.move }), h('td', { cls: 'games', text: fmt(m.games) }),
          /* the bar dark for Black's wins, light for White's, whoever moves first */
          h('td', {}, [m.games ? (F === 'White' ? resultBar(m.white_wins, m.draws, m.black_wins) : resultBar(m.black_wins, m.draws, m.white_wins)) : null]),
          h('td', { text: t ? Math.round(100 * (m.black_wins + m.draws / 2) / t) + '%' : '' })];
        if (withDb) cells.push(h('td', { cls: 'egdb egdb-' + (m.egdb ? m.egdb.value : 'none'),
          text: m.egdb ? m.egdb.value + (m.egdb.plies != null && m.egdb.value !== 'draw' ? ' in ' + m.egdb.plies : '') : '' }));
        cells.push(engineCells[m.move] = h('td', { cls: 'engine', text: '' }));
        tb.appendChild(h('tr', { cls: 'row', onclick: function () { play(m); } }, cells));
      });
      var heads = [h('th', { text: 'move' }), h('th', { text: 'games' }), h('th', { text: 'Black \u00b7 draw \u00b7 White' }), h('th', { text: F + ' score' })];
      if (withDb) heads.push(h('th', { text: 'databases (' + S + ')', title: 'the endgame databases\' value of each move for the side to move, in plies' }));
      heads.push(h('th', { text: 'engine (' + S + ')', title: 'each move searched by the engine (Analyse), in men for the side to move' }));
      right.appendChild(h('table', { cls: 'list', id: 'explore' }, [h('thead', {}, [h('tr', {}, heads)]), tb]));
    }).catch(function (e) { showError(right, e); });
  }

  /* --- players --- */
  function playersPage(q) {
    clear(view);
    view.appendChild(h('h1', { text: 'Players' }));
    var input = h('input', { name: 'player', value: q.player || '', cls: 'wide' });
    view.appendChild(h('form', { cls: 'filters', onsubmit: function (ev) { ev.preventDefault(); location.hash = '#/players?' + qs({ player: input.value }); } },
      [h('label', {}, ['the players of the games of', input]), h('button', { type: 'submit', text: 'Show' })]));
    var out = h('div', {}, [h('p', { cls: 'muted', text: 'Loading...' })]);
    view.appendChild(out);
    api('players', { player: q.player || '', limit: 200 }).then(function (d) {
      clear(out);
      var tb = h('tbody');
      d.players.forEach(function (p) {
        var t = p.won + p.drawn + p.lost;
        tb.appendChild(h('tr', { cls: 'row', onclick: function () { location.hash = '#/games?' + qs({ player: p.name }); } }, [
          h('td', { text: p.name }), h('td', { text: fmt(p.games) }), h('td', { text: p.won + '-' + p.drawn + '-' + p.lost }),
          h('td', { text: t ? Math.round(100 * (p.won + p.drawn / 2) / t) + '%' : '' }),
          h('td', { text: p.average_loss == null ? '-' : p.average_loss.toFixed(1) }),
          h('td', { text: p.first_year ? p.first_year + (p.last_year !== p.first_year ? '\u2013' + p.last_year : '') : '' })]));
      });
      if (info.writable) out.appendChild(aliasForm(d.players, q));
      out.appendChild(h('table', { cls: 'list' }, [h('thead', {}, [h('tr', {}, ['player', 'games', 'won-drawn-lost', 'score', 'average loss', 'years']
        .map(function (x) { return h('th', { text: x }); }))]), tb]));
    }).catch(function (e) { showError(out, e); });
  }

  /* With --allow-write: make a name one more spelling of a player (POST /api/alias). */
  function aliasForm(list, q) {
    var names = h('datalist', { id: 'player-names' }, list.map(function (p) { return h('option', { value: p.name }); }));
    var sp = h('input', { name: 'spelling', id: 'alias-spelling', list: 'player-names', cls: 'wide' });
    var pl = h('input', { name: 'player', id: 'alias-player', list: 'player-names', cls: 'wide' });
    var msg = h('span', { cls: 'muted' });
    return h('form', { cls: 'filters', id: 'alias', onsubmit: function (ev) {
      ev.preventDefault();
      clear(msg).appendChild(document.createTextNode('Merging...'));
      fetch('/api/alias?' + qs({ spelling: sp.value, player: pl.value }), { method: 'POST', headers: { 'X-Pdnkit': '1' } }).then(function (r) {
        return r.json().then(function (j) { if (!r.ok) throw new Error(j.error); return j; });
      }).then(function (j) { playersPage(q); }).catch(function (e) { clear(msg); showError(msg, e); });
    } }, [names, h('label', {}, ['the name', sp]), h('label', {}, ['is a spelling of', pl]),
      h('button', { type: 'submit', text: 'Merge' }), msg]);
  }

  /* --- stats --- */
  function statsPage() {
    clear(view);
    view.appendChild(h('h1', { text: 'The collection' }));
    var out = h('div', {}, [h('p', { cls: 'muted', text: 'Loading...' })]);
    view.appendChild(out);
    api('stats', {}).then(function (d) {
      clear(out);
      out.appendChild(h('p', { cls: 'kv' }, [h('b', { text: 'games' }), fmt(d.games), h('br'), h('b', { text: 'players' }), fmt(d.player_count),
        h('br'), h('b', { text: 'events' }), fmt(d.events), h('br'), h('b', { text: 'dates' }), (d.first_date || '?') + ' \u2013 ' + (d.last_date || '?')]));
      var r = d.results;
      out.appendChild(h('h3', { text: 'Results' }));
      out.appendChild(h('p', { cls: 'kv' }, [resultBar(r.black_wins, r.draws, r.white_wins),
        fmt(r.black_wins) + ' Black wins, ' + fmt(r.draws) + ' draws, ' + fmt(r.white_wins) + ' White wins, ' + fmt(r.unknown) + ' unknown']));
      out.appendChild(h('h3', { text: 'Most played openings (three moves)' }));
      out.appendChild(h('table', { cls: 'list' }, d.openings.map(function (o) {
        return h('tr', { cls: 'row', onclick: function () { location.hash = '#/explorer?' + qs({ moves: o.text }); } },
          [h('td', { text: o.text }), h('td', { text: fmt(o.games) }), h('td', {}, [resultBar(o.black_wins, o.draws, o.white_wins)])]);
      })));
      out.appendChild(h('h3', { text: 'Most games' }));
      out.appendChild(h('table', { cls: 'list' }, d.players.map(function (p) {
        return h('tr', { cls: 'row', onclick: function () { location.hash = '#/games?' + qs({ player: p.name }); } },
          [h('td', { text: p.name }), h('td', { text: fmt(p.games) }), h('td', { text: p.won + '-' + p.drawn + '-' + p.lost })]);
      })));
      if (d.years.length) {
        out.appendChild(h('h3', { text: 'Games per year' }));
        var y0 = d.years[0][0], y1 = d.years[d.years.length - 1][0], max = Math.max.apply(null, d.years.map(function (y) { return y[1]; }));
        var w = 900, hh = 120, bw = w / (y1 - y0 + 1);
        var svg = s('svg', { viewBox: '0 0 ' + w + ' ' + (hh + 14), 'class': 'years', role: 'img' });
        d.years.forEach(function (y) {
          var bh = y[1] / max * hh;
          var rect = s('rect', { x: ((y[0] - y0) * bw).toFixed(1), y: (hh - bh).toFixed(1), width: Math.max(1, bw - 1).toFixed(1), height: bh.toFixed(1), fill: '#2e6fb7' });
          rect.appendChild(s('title')).textContent = y[0] + ': ' + y[1] + ' games';
          svg.appendChild(rect);
        });
        [y0, y1].forEach(function (y, i) {
          var t = s('text', { x: i ? w : 0, y: hh + 12, 'font-size': 11, 'text-anchor': i ? 'end' : 'start' });
          t.textContent = y; svg.appendChild(t);
        });
        out.appendChild(svg);
      }
    }).catch(function (e) { showError(out, e); });
  }

  function route() {
    document.onkeydown = null;
    var hash = location.hash.replace(/^#\/?/, '');
    var i = hash.indexOf('?'), page = i < 0 ? hash : hash.slice(0, i), q = parseQs(i < 0 ? '' : hash.slice(i + 1));
    var parts = page.split('/');
    document.querySelectorAll('header nav a').forEach(function (a) { a.classList.toggle('on', a.getAttribute('data-nav') === (parts[0] || 'games')); });
    document.title = 'pdnkit';
    if (parts[0] === 'game' && /^\d+$/.test(parts[1] || '')) gamePage(parts[1]);
    else if (parts[0] === 'explorer') explorerPage(q);
    else if (parts[0] === 'players') playersPage(q);
    else if (parts[0] === 'stats') statsPage(q);
    else gamesPage(q);
  }
  window.addEventListener('hashchange', route);
  /* what the server offers (annotation on request), then the page */
  fetch('/api/info').then(function (r) { return r.json(); }).then(function (j) { info = j; }, function () {}).then(route);
})();
