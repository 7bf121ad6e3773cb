// The navigation menu on narrow screens. Runs in <head>: marks the page as scripted (site.css then
// folds the list behind the Menu button below 52rem), and wires the button once the page is parsed.
// Without JavaScript the list simply stays open.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  document.addEventListener("DOMContentLoaded", function () {
    var nav = document.querySelector(".site-nav");
    var button = nav && nav.querySelector(".nav-toggle");
    if (!nav || !button) return;
    button.addEventListener("click", function () {
      var open = nav.classList.toggle("open");
      button.setAttribute("aria-expanded", open ? "true" : "false");
    });
  });
})();
