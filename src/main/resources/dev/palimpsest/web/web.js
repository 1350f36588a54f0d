// palimpsest web view: progressive enhancement only; every page works without this file.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  // The as-of form: a time picked in the picker wins over a commit typed before, and the reverse.
  var at = document.getElementById("asof-at");
  var time = document.getElementById("asof-time");
  if (at && time) {
    time.addEventListener("change", function () { if (time.value) { at.value = ""; } });
    at.addEventListener("input", function () { if (at.value) { time.value = ""; } });
  }
});
