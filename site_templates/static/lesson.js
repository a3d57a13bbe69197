// The lesson player. Without this file a lesson is one long page with every step on it; with it, the page shows
// one step at a time and adds: previous/next (← →), first/last (Home/End), the next commented step (C, Shift+C
// for the previous one), a permanent link per step kept in the address (#trick-17), a film that plays the deal,
// the view switch (all hands, or one seat's hand with the others hidden), four-colour suits, and the quizzes,
// which hide the play a question asks about, and everything after it, until the learner answers.
(function () {
  "use strict";
  var root = document.documentElement;
  var prefs = window.bezique || { get: function (k, d) { return d; }, set: function () {} };
  var steps = Array.prototype.slice.call(document.querySelectorAll("[data-step]"));
  var bar = document.querySelector("[data-player]");
  if (!steps.length || !bar) {
    return;
  }
  var index = -1;
  var film = null;
  var byId = {};
  steps.forEach(function (step, i) {
    byId[step.id] = i;
    var aliases = step.querySelectorAll(".alias[id]");
    for (var j = 0; j < aliases.length; j++) {
      byId[aliases[j].id] = i;
    }
  });
  var links = Array.prototype.slice.call(document.querySelectorAll(".step-list a[href^='#']"));

  function stepFromHash() {
    var id = "";
    try {
      id = decodeURIComponent(location.hash.slice(1));
    } catch (e) {
      id = location.hash.slice(1);
    }
    return Object.prototype.hasOwnProperty.call(byId, id) ? byId[id] : -1;
  }

  function setHash(id) {
    if (location.hash.slice(1) === id) {
      return;
    }
    // Replacing (not pushing) the address keeps Back for leaving the lesson, not for undoing 32 steps.
    try {
      history.replaceState(null, "", "#" + id);
    } catch (e) {
      location.replace("#" + id);
    }
  }

  function show(i) {
    i = Math.max(0, Math.min(steps.length - 1, i));
    if (index >= 0) {
      steps[index].classList.remove("current");
      steps[index].closest(".deal").classList.remove("current-deal");
    }
    index = i;
    var step = steps[i];
    step.classList.add("current");
    step.closest(".deal").classList.add("current-deal");
    setHash(step.id);
    applyQuiz(step);
    var counter = bar.querySelector(".counter");
    counter.textContent =
      bar.getAttribute("data-step-of").replace("{n}", i + 1).replace("{total}", steps.length) +
      " · " + step.getAttribute("data-title");
    bar.querySelector("[data-go='first']").disabled = i === 0;
    bar.querySelector("[data-go='prev']").disabled = i === 0;
    bar.querySelector("[data-go='next']").disabled = i === steps.length - 1;
    bar.querySelector("[data-go='last']").disabled = i === steps.length - 1;
    links.forEach(function (link) {
      if (link.getAttribute("href") === "#" + step.id) {
        link.setAttribute("aria-current", "step");
      } else {
        link.removeAttribute("aria-current");
      }
    });
    // Bring the step's top just below the toolbar (which sticks to the top of the window) when it is out of view.
    var top = step.getBoundingClientRect().top;
    var below = bar.getBoundingClientRect().height + 8;
    if (top < below || top > window.innerHeight * 0.6) {
      window.scrollTo(0, window.pageYOffset + top - below);
    }
  }

  function commented(direction) {
    for (var i = index + direction; i >= 0 && i < steps.length; i += direction) {
      if (steps[i].hasAttribute("data-commented")) {
        show(i);
        return;
      }
    }
  }

  // --- quizzes -------------------------------------------------------------------------------------------------

  function applyQuiz(step) {
    var quizzes = Array.prototype.slice.call(step.querySelectorAll(".quiz"));
    var pending = null;
    quizzes.forEach(function (quiz) {
      var waiting = !quiz.classList.contains("solved");
      quiz.hidden = waiting && pending !== null;
      if (waiting && pending === null) {
        pending = quiz;
      }
    });
    var from = pending ? Number(pending.getAttribute("data-play")) : Infinity;
    var plays = step.querySelectorAll(".play[data-play]");
    for (var i = 0; i < plays.length; i++) {
      plays[i].classList.toggle("concealed", Number(plays[i].getAttribute("data-play")) >= from);
    }
    step.classList.toggle("quiz-pending", pending !== null);
    return pending;
  }

  function solve(quiz, text, state) {
    var feedback = quiz.querySelector(".quiz-feedback");
    feedback.textContent = text;
    feedback.className = "quiz-feedback " + state;
    quiz.classList.add("solved");
    var choices = quiz.querySelectorAll(".choice");
    var answers = quiz.getAttribute("data-answers").split(/\s+/);
    for (var i = 0; i < choices.length; i++) {
      choices[i].disabled = true;
      if (answers.indexOf(choices[i].getAttribute("data-card")) >= 0) {
        choices[i].classList.add("right");
      }
    }
    applyQuiz(quiz.closest("[data-step]"));
  }

  function choose(button) {
    var quiz = button.closest(".quiz");
    if (quiz.classList.contains("solved")) {
      return;
    }
    var answers = quiz.getAttribute("data-answers").split(/\s+/);
    var glyph = button.getAttribute("data-glyph");
    if (answers.indexOf(button.getAttribute("data-card")) >= 0) {
      solve(quiz, quiz.getAttribute("data-right").replace("{card}", glyph), "right");
    } else {
      button.classList.add("wrong");
      button.disabled = true;
      var feedback = quiz.querySelector(".quiz-feedback");
      feedback.textContent = quiz.getAttribute("data-wrong").replace("{card}", glyph);
      feedback.className = "quiz-feedback wrong";
    }
  }

  function reveal(quiz) {
    if (!quiz.classList.contains("solved")) {
      // An open question (no accepted answer in the record) has nothing to announce: the play itself answers it.
      var answer = quiz.getAttribute("data-answer-text");
      solve(quiz, answer ? quiz.getAttribute("data-revealed").replace("{card}", answer) : "", "shown");
    }
  }

  // --- the film ------------------------------------------------------------------------------------------------

  function filmButton() {
    return bar.querySelector("[data-go='film']");
  }

  function stopFilm() {
    if (film !== null) {
      clearInterval(film);
      film = null;
      filmButton().setAttribute("aria-pressed", "false");
      filmButton().textContent = bar.getAttribute("data-play-label");
    }
  }

  function startFilm() {
    filmButton().setAttribute("aria-pressed", "true");
    filmButton().textContent = bar.getAttribute("data-pause-label");
    // The film stops where the learner has something to do (a question) and at the end. Its pace can be set on
    // the toolbar (data-film-ms), which the browser tests use to watch a film in a fraction of a second.
    var pace = Number(bar.getAttribute("data-film-ms")) || 2500;
    film = setInterval(function () {
      if (index >= steps.length - 1 || steps[index].classList.contains("quiz-pending")) {
        stopFilm();
      } else {
        show(index + 1);
      }
    }, pace);
  }

  // --- view and colours ----------------------------------------------------------------------------------------

  function setView(view) {
    root.setAttribute("data-view", view);
    prefs.set("view", view);
    var buttons = bar.querySelectorAll("[data-view]");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute("aria-pressed", String(buttons[i].getAttribute("data-view") === view));
    }
  }

  function setColours(four) {
    root.classList.toggle("four-colour", four);
    prefs.set("colours", four ? "4" : "2");
    bar.querySelector("[data-colours]").setAttribute("aria-pressed", String(four));
  }

  // --- events --------------------------------------------------------------------------------------------------

  document.addEventListener("click", function (event) {
    var target = event.target;
    var hit;
    if (!target || !target.closest) {
      return;
    }
    if ((hit = target.closest(".choice"))) {
      choose(hit);
    } else if ((hit = target.closest(".reveal"))) {
      reveal(hit.closest(".quiz"));
    } else if ((hit = target.closest("button[data-go]"))) {
      var go = hit.getAttribute("data-go");
      if (go === "film") {
        if (film === null) {
          startFilm();
        } else {
          stopFilm();
        }
        return;
      }
      stopFilm();
      if (go === "first") {
        show(0);
      } else if (go === "prev") {
        show(index - 1);
      } else if (go === "next") {
        show(index + 1);
      } else if (go === "last") {
        show(steps.length - 1);
      } else if (go === "comment") {
        commented(1);
      }
    } else if ((hit = target.closest("button[data-view]"))) {
      setView(hit.getAttribute("data-view"));
    } else if ((hit = target.closest("button[data-colours]"))) {
      setColours(!root.classList.contains("four-colour"));
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) {
      return;
    }
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
      return;
    }
    var key = event.key;
    if (key === "ArrowRight") {
      show(index + 1);
    } else if (key === "ArrowLeft") {
      show(index - 1);
    } else if (key === "Home") {
      show(0);
    } else if (key === "End") {
      show(steps.length - 1);
    } else if (key === "c" || key === "C") {
      commented(event.shiftKey ? -1 : 1);
    } else {
      return;
    }
    stopFilm();
    event.preventDefault();
  });

  window.addEventListener("hashchange", function () {
    var i = stepFromHash();
    if (i >= 0 && i !== index) {
      stopFilm();
      show(i);
    }
  });

  // Opening or closing the bookkeeping tables on one step does the same on every step, and is remembered.
  document.addEventListener(
    "toggle",
    function (event) {
      var details = event.target;
      var key = details.getAttribute && details.getAttribute("data-remember");
      if (!key || printing) {
        return;
      }
      prefs.set("open." + key, details.open ? "1" : "0");
      var all = document.querySelectorAll("details[data-remember='" + key + "']");
      for (var i = 0; i < all.length; i++) {
        if (all[i].open !== details.open) {
          all[i].open = details.open;
        }
      }
    },
    true
  );
  ["unseen", "melds"].forEach(function (key) {
    var saved = prefs.get("open." + key, null);
    if (saved !== null) {
      var all = document.querySelectorAll("details[data-remember='" + key + "']");
      for (var i = 0; i < all.length; i++) {
        all[i].open = saved === "1";
      }
    }
  });

  // A printed lesson is the teacher's copy: every answer and every table on paper.
  var closed = [];
  var printing = false;
  window.addEventListener("beforeprint", function () {
    printing = true;
    closed = Array.prototype.slice.call(document.querySelectorAll("details:not([open])"));
    closed.forEach(function (details) {
      details.open = true;
    });
  });
  window.addEventListener("afterprint", function () {
    closed.forEach(function (details) {
      details.open = false;
    });
    closed = [];
    // The toggle events of the closing come as tasks of their own: remember choices again only after them.
    setTimeout(function () {
      printing = false;
    }, 0);
  });

  var view = root.getAttribute("data-view") || "all";
  // A view saved on a lesson with other seats (another profile) falls back to all hands.
  setView(bar.querySelector("[data-view='" + view + "']") ? view : "all");
  setColours(root.classList.contains("four-colour"));
  var start = stepFromHash();
  show(start >= 0 ? start : 0);
})();
