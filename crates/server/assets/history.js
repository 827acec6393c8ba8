// History: the slider names the phase under it and opens that phase when let go.
(function () {
  "use strict";
  var slider = document.getElementById("phase-slider");
  if (!slider) return;
  var phases = JSON.parse(slider.getAttribute("data-phases"));
  var label = document.getElementById("phase-label");
  var game = slider.getAttribute("data-game");
  var start = slider.value;
  slider.addEventListener("input", function () {
    label.textContent = phases[Number(slider.value)].phase;
  });
  slider.addEventListener("change", function () {
    if (slider.value === start) return;
    window.location.href = "/games/" + game + "/history/" + phases[Number(slider.value)].seq;
  });
  document.addEventListener("keydown", function (e) {
    if (e.target.closest && e.target.closest("input, textarea, select")) return;
    var link = e.key === "ArrowLeft" ? document.getElementById("prev-phase") : e.key === "ArrowRight" ? document.getElementById("next-phase") : null;
    if (link) window.location.href = link.href;
  });
})();
