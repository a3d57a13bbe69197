// Keys ← and → move to the previous and next step of a lesson. The page is complete without this file: every
// step is an anchor with plain previous/next links, so it only saves reaching for the mouse.
(function () {
  "use strict";
  var steps = Array.prototype.slice.call(document.querySelectorAll("[data-step]"));
  if (!steps.length) {
    return;
  }

  // The step being read is the last one whose top has reached a line just below the top of the window.
  function current() {
    var found = -1;
    for (var i = 0; i < steps.length; i++) {
      if (steps[i].getBoundingClientRect().top <= 40) {
        found = i;
      } else {
        break;
      }
    }
    return found;
  }

  function go(index) {
    if (index < 0 || index >= steps.length) {
      return;
    }
    // Setting the hash (rather than scrolling) keeps the browser's Back button and :target styling working.
    location.hash = "#" + steps[index].id;
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) {
      return;
    }
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
      return;
    }
    if (event.key === "ArrowRight") {
      go(current() + 1);
      event.preventDefault();
    } else if (event.key === "ArrowLeft") {
      go(Math.max(current() - 1, 0));
      event.preventDefault();
    }
  });

  // A printed lesson is the teacher's copy: show the quiz answers on paper.
  window.addEventListener("beforeprint", function () {
    var answers = document.querySelectorAll("details.answer");
    for (var i = 0; i < answers.length; i++) {
      answers[i].open = true;
    }
  });
})();
