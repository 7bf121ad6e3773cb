// Offline search for the docs site: loads search-index.json next to search.html (a relative URL,
// so any base path works) into MiniSearch (assets/minisearch.js, loaded before this file) with the
// settings the build wrote into the index: field boosts, fuzzy matching for typos, prefix matching,
// and a boost per kind of entry so the pages that explain a concept rank above the names of it.
// Every word must match (AND); when nothing does, any word may (OR). An exact name comes first.
(function () {
  "use strict";
  var form = document.getElementById("search-form");
  var input = document.getElementById("search-q");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  if (!form || !input || !status || !list) return;
  var engine = null;
  var options = null;
  var MAX = 100;
  var KIND_LABEL = { guide: "guide", concept: "page", page: "page" };

  // A query that is exactly an entry's name (a message; a constant or field, with or without its
  // group: "HANDLE_PROPOSAL" names "AndroidIntentActions.HANDLE_PROPOSAL") is a lookup: those entries first,
  // the ranked hits after it in their order.
  function search(query) {
    var hits = engine.search(query, Object.assign({}, options, { combineWith: "AND" }));
    if (hits.length === 0) hits = engine.search(query, Object.assign({}, options, { combineWith: "OR" }));
    var name = query.toLowerCase();
    function isName(h) { var t = h.t.toLowerCase(); return t === name || t.slice(-name.length - 1) === "." + name; }
    return hits.filter(isName).concat(hits.filter(function (h) { return !isName(h); }));
  }

  function show(query) {
    var phrase = query.trim();
    while (list.firstChild) list.removeChild(list.firstChild);
    if (!phrase) { status.textContent = "Type a name, a wire value or a word from a description."; return; }
    var hits = search(phrase);
    status.textContent = hits.length === 0 ? "No results for \u201c" + query + "\u201d." : hits.length + " result" + (hits.length === 1 ? "" : "s") + " for \u201c" + query + "\u201d" + (hits.length > MAX ? ", showing the first " + MAX : "") + ".";
    hits.slice(0, MAX).forEach(function (hit) {
      var li = document.createElement("li");
      li.setAttribute("data-kind", hit.k);
      var a = document.createElement("a");
      a.href = hit.u;
      a.textContent = hit.t;
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = (KIND_LABEL[hit.k] || hit.k) + (hit.g ? " \u00b7 " + hit.g : "") + (hit.p ? " \u00b7 " + hit.p : "");
      li.appendChild(a);
      li.appendChild(kind);
      if (hit.d) { var p = document.createElement("p"); p.textContent = hit.d; li.appendChild(p); }
      list.appendChild(li);
    });
  }

  function run() {
    var q = input.value;
    var url = new URL(window.location.href);
    if (q) url.searchParams.set("q", q); else url.searchParams.delete("q");
    window.history.replaceState(null, "", url.toString());
    show(q);
  }

  form.addEventListener("submit", function (event) { event.preventDefault(); if (engine) run(); });
  input.addEventListener("input", function () { if (engine) run(); });
  input.value = new URLSearchParams(window.location.search).get("q") || "";
  status.textContent = "Loading the index\u2026";
  fetch(input.getAttribute("data-index"))
    .then(function (response) { if (!response.ok) throw new Error("HTTP " + response.status); return response.json(); })
    .then(function (data) {
      var s = data.settings;
      var kindBoost = s.kindBoost;
      options = Object.assign({}, s.searchOptions, { boostDocument: function (id, term, stored) { return (stored && kindBoost[stored.k]) || 1; } });
      engine = window.MiniSearch.loadJS(data.index, { fields: s.fields, storeFields: s.storeFields, idField: "id" });
      show(input.value);
      document.documentElement.setAttribute("data-search-ready", "true");
    })
    .catch(function (error) { status.textContent = "The search index could not be loaded (" + error.message + "). Serve the site over HTTP."; });
})();
