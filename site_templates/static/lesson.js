// The lesson player. Without this file a lesson is one long page with every step on it; with it, the page shows
// one step at a time and adds: previous/next (← →), first/last (Home/End), the next commented step (C, Shift+C
// for the previous one), a permanent link per step kept in the address (#trick-17), a film that plays the deal,
// the view switch (all hands, or one seat's hand with the others hidden), four-colour suits, and the quizzes,
// which hide the play a question asks about, and everything after it, until the learner answers. It also draws
// each trick's table and each seat's bookkeeping from the lesson's data. It decides no rule and counts nothing: the
// tables and the books (the cards each seat has not seen, the combinations still open to whom) are in the data,
// worked out by the renderer (replayer/lesson/books.py).
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

  // --- the table and the books ---------------------------------------------------------------------------------
  // The page writes what a learner reads (plays, draws, declarations, scores, commentary) and leaves each trick's
  // table before it and each seat's bookkeeping to this script, drawn from the lesson's data (a JSON block written
  // by the renderer: cards are numbers into its table, every text is in the page's language) the first time a step
  // is shown. The markup is the one the stylesheet and the view switch expect.

  var data = null;
  try {
    data = JSON.parse(document.getElementById("lesson-data").textContent);
  } catch (e) {
    data = null;
  }
  var T = data ? data.text : {};
  var open = {
    unseen: prefs.get("open.unseen", "1") === "1",
    melds: prefs.get("open.melds", "0") === "1"
  };
  var printing = false;

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;" }[c];
    });
  }

  // A card's markup is the renderer's (replayer/lesson/html.py writes it into the data, escaped, once per card): the
  // script only marks the card played.
  function cardHtml(i, played) {
    var html = data.cards[i][6];
    return played ? html.replace('class="card ', 'class="card played ') : html;
  }

  // A row of cards, the one at position ``marked`` (if any) lifted as the card played.
  function cardsHtml(list, marked) {
    if (!list.length) {
      return '<span class="none">' + esc(T.nothing) + "</span>";
    }
    return '<span class="cards">' + list.map(function (c, i) { return cardHtml(c, i === marked); }).join("") + "</span>";
  }

  function seatHtml(board, i) {
    var seat = data.seats[i];
    var hand = board.hands[i];
    var table = board.tables[i];
    var onTable = board.marked[i][0];
    var inHand = board.marked[i][1];
    var backs = "";
    for (var n = 0; n < hand.length; n++) {
      backs += '<span class="card back"></span>';
    }
    return (
      '<div class="seat pos-' + esc(seat.position) + '" data-seat="' + esc(seat.seat) + '">' +
      '<h4 class="seat-name">' + esc(seat.label) +
      (seat.player ? ' <span class="player">' + esc(seat.player) + "</span>" : "") +
      ' <span class="seat-score" title="' + esc(T.score_before) + '">' + board.scores[i] + "</span></h4>" +
      '<div class="hand"><span class="what">' + esc(T.hand) + '</span> <span class="hand-cards">' +
      cardsHtml(hand, inHand) + '</span><span class="hand-hidden"><span class="cards backs" role="img" aria-label="' +
      esc(data.hidden[hand.length]) + '">' + backs + "</span></span></div>" +
      '<div class="on-table"><span class="what">' + esc(T.on_table) + "</span> " + cardsHtml(table, onTable) +
      "</div></div>"
    );
  }

  function stockHtml(board) {
    return (
      '<div class="stock-box"><h4>' + esc(data.stock_title) + '</h4><p class="stock">' +
      (board.turnup >= 0 ? '<span class="turnup">' + cardHtml(board.turnup, false) + "</span>" : "") +
      (board.stock > 0 ? '<span class="pile" aria-hidden="true"><span class="card back"></span></span>' : "") +
      ' <span class="stock-text">' + esc(board.stock_text) + "</span></p>" +
      (board.trump
        ? '<p class="trumps"><span class="what">' + esc(T.trumps) + '</span> <span class="trump' +
          (board.trump_red ? " red" : "") + '">' + esc(board.trump) + "</span></p>"
        : "") +
      "</div>"
    );
  }

  // The deal's score sheet up to the step: the rows where something was scored, the step's own marked.
  function sheetHtml(deal, count, anchor) {
    var rows = deal.sheet.slice(0, count).map(function (row) {
      return (
        '<tr class="scored' + (row[0] === anchor ? " now" : "") + '"><th scope="row"><a href="#' + esc(row[0]) +
        '">' + esc(row[1]) + "</a></th><td>" + row[2].map(esc).join("<br>") + "</td>" +
        row[3].map(function (v) { return '<td class="num">' + v + "</td>"; }).join("") + "</tr>"
      );
    });
    return (
      '<table class="sheet running-sheet"><caption>' + esc(T.sheet_so_far) + '</caption><thead><tr><th scope="col">' +
      esc(T.sheet_step) + '</th><th scope="col">' + esc(T.sheet_events) + "</th>" +
      deal.labels.map(function (l) { return '<th scope="col" class="num">' + esc(l) + "</th>"; }).join("") +
      "</tr></thead><tbody>" +
      (rows.length
        ? rows.join("")
        : '<tr><td colspan="' + (2 + deal.labels.length) + '" class="none">' + esc(T.sheet_empty) + "</td></tr>") +
      "</tbody></table>"
    );
  }

  // --- the books ------------------------------------------------------------------------------------------------
  // Each seat's bookkeeping before a trick is the renderer's: replayer/lesson/books.py works it out by the rules and
  // writes it into the step's data (``book``: for each seat, the unseen copies of each card as one base-36
  // character, their number and sentence, the cards known in another hand, the news, and each combination's state as
  // a number into ``states``). This script only shows it.
  function booksOf(at) {
    return at.book.map(function (b) {
      var unseen = [];
      for (var k = 0; k < b[0].length; k++) {
        unseen.push(parseInt(b[0].charAt(k), 36));
      }
      return {
        unseen: unseen,
        count: b[1],
        text: b[2],
        known: b[3],
        news: b[4],
        melds: b[5].map(function (i) { return data.states[i]; }),
        declaring: at.declaring
      };
    });
  }

  function bookHtml(deal, book, i) {
    var seat = data.seats[i];
    var words = data.books[i];
    var html =
      '<div class="book' + (book.news.length ? "" : " quiet") + '" data-seat="' + esc(seat.seat) +
      '" role="group" aria-label="' + esc(words.title) + '"><h4>' + esc(words.title) + "</h4>";
    if (book.news.length) {
      html += '<ul class="news">' + book.news.map(function (line) { return "<li>" + esc(line) + "</li>"; }).join("") +
        "</ul>";
    }
    html +=
      '<details class="unseen-box" data-remember="unseen"' + (open.unseen ? " open" : "") + "><summary>" +
      esc(words.unseen) + ": <strong>" + book.count + '</strong></summary><table class="unseen"><thead><tr><td></td>' +
      data.ranks.map(function (r) { return '<th scope="col">' + esc(r) + "</th>"; }).join("") + "</tr></thead><tbody>";
    data.suits.forEach(function (suit, s) {
      html +=
        '<tr class="s-' + esc(suit[0]) + (suit[2] ? " red" : "") + '"><th scope="row" title="' + esc(suit[3]) +
        '"><span aria-hidden="true">' + esc(suit[1]) + '\uFE0E</span><span class="visually-hidden">' + esc(suit[3]) +
        "</span></th>";
      data.grid[s].forEach(function (c) {
        var n = book.unseen[c];
        html += '<td class="n' + n + '">' + (n ? n : "·") + "</td>";
      });
      html += "</tr>";
    });
    html += '</tbody></table><p class="unseen-text">' + esc(book.text) + "</p>";
    if (book.known.length) {
      html += '<p class="known">' + esc(words.known) + " " + cardsHtml(book.known, -1) + "</p>";
    }
    html += "</details>";
    if (book.melds.length) {
      var seats = data.seats.length;
      html +=
        '<details class="melds-box" data-remember="melds"' + (open.melds ? " open" : "") + "><summary>" +
        esc(T.melds_title) + '</summary><p class="note"><a href="' + esc(data.rules) + '#melds">' +
        esc(T.rules_melds) + '</a></p><table class="chances"><thead><tr><th scope="col">' + esc(T.meld_col) +
        "</th>" + data.seats.map(function (s) { return '<th scope="col">' + esc(s.label) + "</th>"; }).join("") +
        "</tr></thead><tbody>";
      deal.targets.forEach(function (target, t) {
        html +=
          '<tr><th scope="row">' + esc(target.name) + ' <span class="meld-cards" aria-hidden="true">' +
          target.pictures.map(function (c) {
            var card = data.cards[c];
            return '<span class="s-' + esc(card[0].slice(-1)) + '">' + esc(card[1] + card[2]) + "</span>";
          }).join(" ") + "</span></th>";
        for (var s = 0; s < seats; s++) {
          var state = book.melds[t * seats + s];
          html += '<td class="state state-' + esc(state[0]) + '">' + esc(state[1]) + "</td>";
        }
        html += "</tr>";
      });
      html += "</tbody></table></details>";
    } else if (!book.declaring) {
      html += '<p class="note">' + esc(T.no_declarations) + "</p>";
    }
    return html + "</div>";
  }

  // Draws a step's table and books the first time it is shown (or printed); a deal's end has none.
  function draw(step) {
    if (!data || step.hasAttribute("data-drawn") || !step.hasAttribute("data-data")) {
      return;
    }
    step.setAttribute("data-drawn", "");
    var at = data.steps[Number(step.getAttribute("data-data"))];
    var deal = data.deals[at.deal];
    var board = at.board;
    var place = step.querySelector("[data-board]");
    if (board && place) {
      var centre = place.querySelector(".centre");
      centre.insertAdjacentHTML("beforebegin", board.hands.map(function (_, i) { return seatHtml(board, i); }).join(""));
      centre.insertAdjacentHTML("beforeend", stockHtml(board));
      place.querySelector(".side").innerHTML = sheetHtml(deal, board.sheet, at.anchor);
    }
    var books = step.querySelector("[data-books]");
    var worked = at.book ? booksOf(at) : null;
    if (books && worked) {
      books.innerHTML = worked.map(function (book, i) { return bookHtml(deal, book, i); }).join("");
    }
  }

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
    filmNote("");
    draw(step);
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
    var below = barHeight() + 8;
    if (top < below || top > window.innerHeight * 0.6) {
      window.scrollTo(0, window.pageYOffset + top - below);
    }
  }

  // The toolbar's height, kept in the --bar property for the stylesheet: an anchor followed in the page (a step, a
  // note) is scrolled to below the toolbar, not under it, however many rows the toolbar wraps to.
  function barHeight() {
    var height = bar.getBoundingClientRect().height;
    root.style.setProperty("--bar", height + "px");
    return height;
  }

  window.addEventListener("resize", barHeight);

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
    // A better-play question: once answered, it says what the record actually plays, which the trick then shows.
    var better = quiz.getAttribute("data-better");
    feedback.textContent = better ? (text ? text + " " : "") + better : text;
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
    filmNote("");
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

  // Says why the film does not go on (a question waits for its answer), or nothing.
  function filmNote(text) {
    var note = document.querySelector(".film-note");
    if (note) {
      note.textContent = text;
      note.hidden = !text;
    }
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
    if (steps[index].classList.contains("quiz-pending")) {
      filmNote(bar.getAttribute("data-film-quiz"));
      return;
    }
    filmNote("");
    filmButton().setAttribute("aria-pressed", "true");
    filmButton().textContent = bar.getAttribute("data-pause-label");
    // The film stops where the learner has something to do (a question) and at the end. Its pace can be set on
    // the toolbar (data-film-ms), which the browser tests use to watch a film in a fraction of a second.
    var pace = Number(bar.getAttribute("data-film-ms")) || 2500;
    film = setInterval(function () {
      if (index >= steps.length - 1 || steps[index].classList.contains("quiz-pending")) {
        stopFilm();
        if (steps[index].classList.contains("quiz-pending")) {
          filmNote(bar.getAttribute("data-film-quiz"));
        }
      } else {
        show(index + 1);
      }
    }, pace);
  }

  // --- view and colours ----------------------------------------------------------------------------------------

  // The view: every hand, or one seat's with the others face down; chosen in the toolbar's list and remembered.
  function setView(view) {
    root.setAttribute("data-view", view);
    prefs.set("view", view);
    var select = bar.querySelector("[data-view-select]");
    if (select && select.value !== view) {
      select.value = view;
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
      open[key] = details.open;
      var all = document.querySelectorAll("details[data-remember='" + key + "']");
      for (var i = 0; i < all.length; i++) {
        if (all[i].open !== details.open) {
          all[i].open = details.open;
        }
      }
    },
    true
  );

  // A printed lesson is the teacher's copy: every table drawn, every answer and every table open on paper.
  var closed = [];
  window.addEventListener("beforeprint", function () {
    printing = true;
    steps.forEach(draw);
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

  bar.addEventListener("change", function (event) {
    if (event.target && event.target.hasAttribute("data-view-select")) {
      setView(event.target.value);
    }
  });

  var view = root.getAttribute("data-view") || "all";
  // A view saved on a lesson with other seats (another profile) falls back to all hands.
  setView(bar.querySelector("[data-view-select] option[value='" + view + "']") ? view : "all");
  setColours(root.classList.contains("four-colour"));
  var start = stepFromHash();
  show(start >= 0 ? start : 0);
})();
