// The playground page: drives the protocol's generated TS bindings, which the page's bundle
// (assets/playground-<protocol>.js) exposes as window.agentContractsPlayground. Validation reports
// every error at its line, column and JSON pointer; the canonical form and the signing input come
// from the bindings' own canonicalizer and signing declaration; sign and verify use the key typed
// into the page, which is never sent (there is no form to submit) and never stored; a lifecycle
// steps through the bindings' own transition function.
(function () {
  "use strict";
  var api = window.agentContractsPlayground;
  var dataElement = document.getElementById("playground-data");
  if (!api || !dataElement) return;
  var data = JSON.parse(dataElement.textContent);
  function $(id) { return document.getElementById(id); }
  function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); }
  function option(select, value, label) { var o = document.createElement("option"); o.value = value; o.textContent = label; select.appendChild(o); }

  // --- Messages: validate, canonical form, signing input, sign and verify ---
  var select = $("pg-message");
  var text = $("pg-json");
  data.messages.forEach(function (m) { option(select, m.name, m.name + (m.signed ? " (signed)" : "")); });
  function message() { return data.messages.filter(function (m) { return m.name === select.value; })[0]; }

  function parsed() {
    var result = api.parseStrictJson(text.value);
    return result.ok ? result.value : undefined;
  }

  function check() {
    var list = $("pg-errors");
    clear(list);
    var result = api.parseMessageAllErrors(data.protocol, select.value, text.value);
    if (result.ok) {
      $("pg-verdict").textContent = "Valid " + select.value + ".";
      $("pg-verdict").className = "ok";
    } else {
      var located = api.locateErrors(text.value, result.errors);
      $("pg-verdict").textContent = located.length + " error" + (located.length === 1 ? "" : "s") + (result.truncated ? " (the first " + located.length + ")" : "") + ":";
      $("pg-verdict").className = "error";
      located.forEach(function (e) {
        var li = document.createElement("li");
        var where = document.createElement("code");
        // formatError's line starts with the JSON pointer; invalid JSON has none.
        where.textContent = "line " + e.line + ", column " + e.column;
        li.appendChild(where);
        li.appendChild(document.createTextNode(" " + e.message));
        list.appendChild(li);
      });
    }
    showCanonical();
  }

  function showCanonical() {
    var value = parsed();
    $("pg-jcs").textContent = value === undefined ? "(not JSON: see the errors above)" : api.canonicalize(value);
    var signing = api.signing[select.value];
    $("pg-signing").hidden = !signing;
    $("pg-keys").hidden = !signing;
    $("pg-unsigned").hidden = !!signing;
    $("pg-signature").textContent = "";
    if (signing) {
      var input = value === undefined || typeof value !== "object" || Array.isArray(value) ? undefined : api.hmacV1SigningInput(signing.declaration, value);
      $("pg-input").textContent = input === undefined ? "(not a JSON object)" : input.ok ? input.input : "cannot build it: " + input.error.code + " (" + input.error.message + ")";
    }
  }

  function load() {
    text.value = message().example;
    check();
  }

  function sign() {
    var signing = api.signing[select.value];
    var value = parsed();
    var out = $("pg-signature");
    if (!signing || value === undefined) { out.textContent = "Not a JSON object."; return; }
    var result = signing.compute(value, $("pg-key").value);
    out.className = result.ok ? "ok" : "error";
    out.textContent = result.ok ? "Signature: " + result.signature : "Cannot sign: " + result.error.code + " (" + result.error.message + ")";
    if (result.ok) {
      text.value = JSON.stringify(result.message, null, 2);
      check();
      out.className = "ok";
      out.textContent = "Signature: " + result.signature + " (written into the JSON above)";
    }
  }

  function verify() {
    var signing = api.signing[select.value];
    var value = parsed();
    var out = $("pg-signature");
    if (!signing || value === undefined) { out.textContent = "Not a JSON object."; return; }
    var result = signing.verify(value, $("pg-key").value);
    out.className = result.ok ? "ok" : "error";
    out.textContent = result.ok ? "Signature valid." : "Signature refused: " + result.error.code + " (" + result.error.message + ")";
  }

  select.addEventListener("change", load);
  $("pg-example").addEventListener("click", load);
  $("pg-check").addEventListener("click", check);
  text.addEventListener("input", function () { $("pg-verdict").textContent = ""; clear($("pg-errors")); showCanonical(); });
  $("pg-sign").addEventListener("click", sign);
  $("pg-verify").addEventListener("click", verify);
  load();

  // --- Lifecycles: click an event, see the transition or the refusal ---
  var lifecycleSelect = $("pg-lifecycle");
  if (lifecycleSelect) {
    data.lifecycles.forEach(function (l) { option(lifecycleSelect, l.name, l.name + " — " + l.title); });
    var state = null;
    // The bindings' Machine of the chosen lifecycle (lifecycles.<camelName>.<camelName>Machine).
    var machine = function () {
      var l = data.lifecycles.filter(function (x) { return x.name === lifecycleSelect.value; })[0];
      var m = api.lifecycles[l.exportName] && api.lifecycles[l.exportName][l.machineExport];
      if (!m) throw new Error("the bindings have no lifecycles." + l.exportName + "." + l.machineExport);
      return m;
    };

    var guards = function () {
      var values = {};
      Array.prototype.forEach.call(document.querySelectorAll("#pg-guards input"), function (box) { values[box.name] = box.checked; });
      return values;
    };

    var render = function () {
      var m = machine();
      $("pg-state").textContent = state;
      var terminal = m.isTerminal(state);
      $("pg-terminal").hidden = !terminal;
      var events = $("pg-events");
      clear(events);
      if (terminal) { events.textContent = "None: " + state + " is terminal."; return; }
      m.allowedEvents(state).forEach(function (event) {
        var b = document.createElement("button");
        b.type = "button";
        b.textContent = event;
        b.setAttribute("data-event", event);
        b.addEventListener("click", function () { step(event); });
        events.appendChild(b);
      });
    };

    var step = function (event) {
      var outcome = machine().transition(state, event, guards());
      var li = document.createElement("li");
      li.textContent = outcome.ok
        ? state + " —" + event + "→ " + outcome.state + (outcome.effects.length ? " (effects: " + outcome.effects.join(", ") + ")" : "")
        : state + " —" + event + "→ refused: " + outcome.refusal + (outcome.guard ? " (" + outcome.guard + ")" : "");
      li.className = outcome.ok ? "" : "error";
      $("pg-history").appendChild(li);
      state = outcome.state;
      render();
    };

    var reset = function () {
      var m = machine();
      state = m.definition.initial;
      clear($("pg-history"));
      var box = $("pg-guards");
      Array.prototype.slice.call(box.querySelectorAll("label")).forEach(function (l) { box.removeChild(l); });
      m.definition.guards.forEach(function (g) {
        var label = document.createElement("label");
        var input = document.createElement("input");
        input.type = "checkbox";
        input.name = g;
        label.appendChild(input);
        label.appendChild(document.createTextNode(" " + g));
        box.appendChild(label);
      });
      render();
    };

    lifecycleSelect.addEventListener("change", reset);
    $("pg-reset").addEventListener("click", reset);
    reset();
  }
  document.documentElement.setAttribute("data-playground-ready", "true");
})();
