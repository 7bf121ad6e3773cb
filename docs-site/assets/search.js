// Offline search for the docs site: loads the prebuilt search-index.json next to search.html
// (a relative URL, so any base path works) and ranks entries by where the query matches.
(function () {
  "use strict";
  var form = document.getElementById("search-form");
  var input = document.getElementById("search-q");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  if (!form || !input || !status || !list) return;
  var index = null;
  var MAX = 100;

  function score(entry, terms, phrase) {
    var title = entry.t.toLowerCase();
    var text = title + " " + entry.d.toLowerCase() + " " + entry.k + " " + entry.p;
    for (var i = 0; i < terms.length; i++) if (text.indexOf(terms[i]) < 0) return 0;
    var s = 1;
    if (title === phrase) s += 100;
    else if (title.indexOf(phrase) === 0) s += 40;
    else if (title.indexOf(phrase) >= 0) s += 20;
    if (entry.k === "message" || entry.k === "lifecycle" || entry.k === "protocol") s += 5;
    return s - title.length / 100;
  }

  function show(query) {
    var phrase = query.trim().toLowerCase();
    while (list.firstChild) list.removeChild(list.firstChild);
    if (!phrase) { status.textContent = "Type a name, a wire value or a word from a description."; return; }
    var terms = phrase.split(/\s+/);
    var hits = [];
    for (var i = 0; i < index.length; i++) {
      var s = score(index[i], terms, phrase);
      if (s > 0) hits.push({ s: s, e: index[i] });
    }
    hits.sort(function (a, b) { return b.s - a.s || (a.e.t < b.e.t ? -1 : 1); });
    status.textContent = hits.length === 0 ? "No results for \u201c" + query + "\u201d." : hits.length + " result" + (hits.length === 1 ? "" : "s") + " for \u201c" + query + "\u201d" + (hits.length > MAX ? ", showing the first " + MAX : "") + ".";
    hits.slice(0, MAX).forEach(function (hit) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = hit.e.u;
      a.textContent = hit.e.t;
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = hit.e.k + (hit.e.p ? " \u00b7 " + hit.e.p : "");
      li.appendChild(a);
      li.appendChild(kind);
      if (hit.e.d) { var p = document.createElement("p"); p.textContent = hit.e.d; li.appendChild(p); }
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

  form.addEventListener("submit", function (event) { event.preventDefault(); if (index) run(); });
  input.addEventListener("input", function () { if (index) run(); });
  input.value = new URLSearchParams(window.location.search).get("q") || "";
  status.textContent = "Loading the index\u2026";
  fetch(input.getAttribute("data-index"))
    .then(function (response) { if (!response.ok) throw new Error("HTTP " + response.status); return response.json(); })
    .then(function (data) { index = data; show(input.value); document.documentElement.setAttribute("data-search-ready", "true"); })
    .catch(function (error) { status.textContent = "The search index could not be loaded (" + error.message + "). Serve the site over HTTP."; });
})();
