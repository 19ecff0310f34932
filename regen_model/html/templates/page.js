// Self-contained: no network, no libraries. Hovering a clause highlights every place that
// cites it; the page records what it rendered (data-* attributes) for tests and tools.
(function () {
  "use strict";
  function each(selector, fn, root) {
    Array.prototype.forEach.call((root || document).querySelectorAll(selector), fn);
  }
  each(".clause[data-clause]", function (chip) {
    var id = chip.getAttribute("data-clause");
    function mark(on) {
      each('.clause[data-clause="' + id + '"]', function (other) {
        other.classList.toggle("hot", on);
      });
    }
    chip.addEventListener("mouseenter", function () { mark(true); });
    chip.addEventListener("mouseleave", function () { mark(false); });
  });
  var timelines = 0;
  each("table.timeline", function (table) {
    var steps = table.querySelectorAll("thead th.step").length;
    var complete = true;
    each("tbody tr", function (row) {
      if (row.querySelectorAll("td[data-step]").length !== steps) { complete = false; }
    }, table);
    table.setAttribute("data-rendered-steps", String(steps));
    table.setAttribute("data-complete", complete ? "yes" : "no");
    timelines += 1;
  });
  document.body.setAttribute("data-timelines", String(timelines));
  document.body.setAttribute("data-ready", "yes");
})();
