// Runs in the page's head, before anything is drawn: it tells the stylesheet that scripts run (so that a lesson
// shows one step at a time instead of all of them) and applies the reader's saved choices, so that the page does
// not flash in another layout first. Saved choices live in localStorage, which some browsers refuse to pages
// opened from the disk: then nothing is saved and nothing breaks.
(function () {
  "use strict";
  var root = document.documentElement;
  var store = null;
  try {
    store = window.localStorage;
  } catch (e) {
    store = null;
  }

  function get(key, fallback) {
    try {
      var value = store ? store.getItem("bezique." + key) : null;
      return value === null ? fallback : value;
    } catch (e) {
      return fallback;
    }
  }

  function set(key, value) {
    try {
      if (store) {
        store.setItem("bezique." + key, value);
      }
    } catch (e) {
      // A full or forbidden store only means the choice is not remembered.
    }
  }

  root.classList.add("js");
  root.setAttribute("data-view", get("view", "all"));
  if (get("colours", "2") === "4") {
    root.classList.add("four-colour");
  }
  window.bezique = { get: get, set: set };
})();
