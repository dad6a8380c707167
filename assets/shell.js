// Browser-side parts of the site shell that have no server round trip.
(function () {
  "use strict";

  // A failed lazy chunk (after a deploy) reloads the page, at most once per 60 s.
  var RELOAD_KEY = "chunk-reload-at";
  function isChunkError(reason) {
    var text = String((reason && (reason.message || reason)) || "");
    return /dynamically imported module|Importing a module script failed|ChunkLoadError|Loading chunk/i.test(text);
  }
  function reloadOnce() {
    var last = Number(localStorage.getItem(RELOAD_KEY) || 0);
    if (Date.now() - last > 60000) {
      localStorage.setItem(RELOAD_KEY, String(Date.now()));
      window.location.reload();
    }
  }
  window.addEventListener("error", function (e) { if (isChunkError(e.error || e.message)) reloadOnce(); });
  window.addEventListener("unhandledrejection", function (e) { if (isChunkError(e.reason)) reloadOnce(); });
  window.addEventListener("vite:preloadError", function (e) { e.preventDefault(); reloadOnce(); });

  // Loading bar: appears only if a navigation takes over 200 ms, creeps towards the end over 5 s.
  var THROTTLE_MS = 200, DURATION_MS = 5000, bar = null, showTimer = null, tick = null, started = 0;
  function ensureBar() {
    if (!bar) { bar = document.createElement("div"); bar.id = "loading-bar"; document.body.appendChild(bar); }
    return bar;
  }
  function pageReady() {
    var marker = document.querySelector('[data-testid="page-ready"]');
    return marker && marker.getAttribute("data-path") === window.location.pathname;
  }
  function finish() {
    clearTimeout(showTimer); clearInterval(tick); showTimer = tick = null;
    if (bar && bar.style.opacity === "1") {
      bar.style.width = "100%";
      setTimeout(function () { bar.style.opacity = "0"; bar.style.width = "0"; }, 250);
    }
  }
  function start() {
    finish();
    started = Date.now();
    showTimer = setTimeout(function () {
      var b = ensureBar(); b.style.opacity = "1";
      tick = setInterval(function () {
        if (pageReady()) return finish();
        var progress = Math.min((Date.now() - started) / DURATION_MS, 1);
        b.style.width = (10 + 85 * (1 - Math.pow(1 - progress, 2))) + "%";
        if (Date.now() - started > 2 * DURATION_MS) finish();
      }, 100);
    }, THROTTLE_MS);
    var poll = setInterval(function () {
      if (pageReady() || !showTimer && !tick) { clearInterval(poll); finish(); }
    }, 50);
  }
  ["pushState", "replaceState"].forEach(function (name) {
    var original = history[name];
    history[name] = function (state, title, url) {
      var changesPage = url != null && new URL(url, window.location.href).pathname !== window.location.pathname;
      var result = original.apply(this, arguments);
      if (changesPage) start();
      return result;
    };
  });
  window.addEventListener("popstate", start);

  // Tell the server when the page is hidden (bounce logging).
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden" && navigator.sendBeacon) {
      var query = new URLSearchParams(window.location.search);
      var url = "/api/page-hidden.php" + (query.has("lb") ? "?lb=1" : "");
      navigator.sendBeacon(url, new Blob(["{}"], { type: "application/json" }));
    }
  });

  // Push service worker: registered from /sw-push.js; its messages reach the page as events.
  if ("serviceWorker" in navigator) {
    // After the page's load (which has often passed when this script runs): never in its way.
    var registerWorker = function () {
      navigator.serviceWorker.register("/sw-push.js").catch(function () {});
    };
    if (document.readyState === "complete") registerWorker();
    else window.addEventListener("load", registerWorker);
    navigator.serviceWorker.addEventListener("message", function (event) {
      var data = event.data || {};
      if (data.type === "NEW_PUSH_MESSAGE") {
        window.dispatchEvent(new CustomEvent("push-message", { detail: data }));
      } else if (data.type === "NEW_PUSH_CLICK" && data.openUrl) {
        window.location.assign(data.openUrl);
      }
    });
  }

  // Log-out is a POST from our own page, so no other site can end a session (a GET can be
  // sent by any link). The form lives in the body: closing the menu that held the link
  // cannot cancel it.
  function logout(next) {
    var form = document.createElement("form");
    form.method = "POST";
    form.action = "/api/logout.php" + (next ? "?next=" + encodeURIComponent(next) : "");
    document.body.appendChild(form);
    form.submit();
  }
  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element && event.target.closest("a[data-logout]");
    if (!link) return;
    event.preventDefault();
    logout();
  }, true);

  // A 403 answer saying authentication_required logs the browser out (spec section 8).
  var nativeFetch = window.fetch.bind(window);
  window.fetch = function () {
    return nativeFetch.apply(null, arguments).then(function (response) {
      if (response.status === 403) {
        response.clone().json().then(function (body) {
          if (body && body.error === "authentication_required") logout();
        }).catch(function () {});
      }
      return response;
    });
  };

  function pushCapable() {
    return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  }
  // Without push: "ios_home_screen" on iPhone and iPad outside the Home Screen app (Safari
  // offers Web Push only there, iOS 16.4+; iPadOS reports itself as a Mac with touch).
  function noPush() {
    var ios = /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
    return Promise.resolve(ios && !navigator.standalone ? "ios_home_screen" : "unsupported");
  }

  // After a log-in over the websocket: trade the one-time code for the HttpOnly session
  // cookie, then load `next` in a fresh page so the new connection carries the cookie.
  window.siteSession = {
    logout: logout,
    handoff: function (code, next) {
      return nativeFetch("/api/session.php", {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code: code })
      }).then(function (response) {
        if (next) window.location.assign(response.ok ? next : "/login");
        return response.ok;
      });
    },
    // After a password change: a fresh device cookie (the new password voided this one).
    renewDevice: function () {
      return nativeFetch("/api/device.php", { method: "POST", credentials: "same-origin" })
        .then(function (response) { return response.ok; });
    },
    // This browser's push state: unsupported, denied, subscribed or not_subscribed.
    pushStatus: function () {
      if (!pushCapable()) return noPush();
      if (Notification.permission === "denied") return Promise.resolve("denied");
      return navigator.serviceWorker.getRegistration("/")
        .then(function (registration) { return registration && registration.pushManager.getSubscription(); })
        .then(function (subscription) {
          return subscription && Notification.permission === "granted" ? "subscribed" : "not_subscribed";
        })
        .catch(function () { return "unsupported"; });
    },
    // Ask for notification permission and store the browser's push subscription.
    subscribePush: function (publicKey) {
      if (!pushCapable()) return noPush();
      var key = Uint8Array.from(atob(publicKey.replace(/-/g, "+").replace(/_/g, "/")), function (c) { return c.charCodeAt(0); });
      return Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") return permission;
        return navigator.serviceWorker.register("/sw-push.js").then(function () { return navigator.serviceWorker.ready; })
          .then(function (registration) {
            return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
          })
          .then(function (subscription) {
            return nativeFetch("/api/user.php?push=1", {
              method: "POST", credentials: "same-origin",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify({ subscription: subscription.toJSON() })
            });
          })
          .then(function (response) { return response.ok ? "subscribed" : "failed"; })
          .catch(function () { return "failed"; });
      });
    }
  };

  // "Use my location" in the settings: resolves {permission, place}. permission is
  // "unsupported", "unknown" (no Permissions API) or the browser's state; place is the
  // answer of /api/geocode.php ({country, region, city}) or null. The coordinates (rounded to
  // about 100 m) go only to that same-origin lookup, never to the page state.
  window.siteGeo = {
    locate: function () {
      if (!navigator.geolocation) return Promise.resolve({ permission: "unsupported", place: null });
      var asked = navigator.permissions && navigator.permissions.query
        ? navigator.permissions.query({ name: "geolocation" })
            .then(function (status) { return status.state; }, function () { return "unknown"; })
        : Promise.resolve("unknown");
      return asked.then(function (permission) {
        return new Promise(function (resolve) {
          var nothing = function () { resolve({ permission: permission, place: null }); };
          setTimeout(nothing, 60000); // an unanswered permission prompt must not hang the button
          navigator.geolocation.getCurrentPosition(function (position) {
            var query = "lat=" + position.coords.latitude.toFixed(3) + "&lon=" + position.coords.longitude.toFixed(3);
            window.fetch("/api/geocode.php?" + query, { credentials: "same-origin" })
              .then(function (response) { return response.ok ? response.json() : null; })
              .then(function (place) { resolve({ permission: "granted", place: place }); }, nothing);
          }, function (error) {
            if (error.code === 1) resolve({ permission: "denied", place: null }); else nothing();
          }, { maximumAge: 3600000, timeout: 15000, enableHighAccuracy: false });
        });
      });
    }
  };

  // Unread messages plus new likes (the hidden [data-attention] of logged-in pages) lead the
  // tab title as "(n) " and go on the installed app's badge where the browser has one.
  var ATTENTION_PREFIX = /^\(\d+\+?\) /;
  function attentionCount() {
    var marker = document.querySelector("[data-attention]");
    return marker ? Number(marker.getAttribute("data-attention")) || 0 : 0;
  }
  function showAttention() {
    var count = attentionCount();
    var base = document.title.replace(ATTENTION_PREFIX, "");
    var title = count > 0 ? "(" + (count > 99 ? "99+" : count) + ") " + base : base;
    if (document.title !== title) document.title = title;
    if (navigator.setAppBadge) {
      (count > 0 ? navigator.setAppBadge(count) : navigator.clearAppBadge()).catch(function () {});
    }
  }
  new MutationObserver(showAttention).observe(document.documentElement, {
    subtree: true, childList: true, characterData: true, attributeFilter: ["data-attention"]
  });

  // A Web Push message reloads chats and likes (the hidden button of logged-in pages).
  window.addEventListener("push-message", function () {
    var button = document.getElementById("push-refresh");
    if (button) button.click();
  });

  // The swipe game (/swipe-game): a card dragged past a threshold, or an arrow key, presses
  // the Like or Pass button; the buttons are what the server hears (every drag has a button).
  // A pressed button sends the top card off at once, so the next one, loaded underneath, shows
  // without waiting for the answer; each answer (the stack's data-decisions) puts back what
  // this script set on the cards, which React reuses for the next members.
  var SWIPE_THRESHOLD = 90;
  function swipeButton(name) { return document.querySelector('[data-testid="swipe-' + name + '"]'); }
  function swipeTop() { return document.querySelector('[data-testid="swipe-stack"] .swipe-card[data-depth="0"]'); }
  function swipeReset(card) { card.removeAttribute("data-gone"); card.classList.remove("dragging"); card.style.transform = ""; }
  document.addEventListener("click", function (e) {
    var pressed = e.target.closest && e.target.closest('[data-testid="swipe-like"], [data-testid="swipe-pass"]');
    var card = swipeTop();
    if (pressed && !pressed.disabled && card) card.setAttribute("data-gone", pressed.dataset.testid === "swipe-like" ? "right" : "left");
  }, true);
  new MutationObserver(function (changes) {
    changes.forEach(function (change) { change.target.querySelectorAll(".swipe-card").forEach(swipeReset); });
  }).observe(document.documentElement, { attributes: true, subtree: true, attributeFilter: ["data-decisions"] });
  var drag = null;
  var draggedAt = 0;  // a drag that ends on the card's link is not a click on it
  document.addEventListener("pointerdown", function (e) {
    var card = swipeTop();
    if (card && e.isPrimary && card.contains(e.target)) drag = { card: card, x: e.clientX, moved: false };
  });
  document.addEventListener("pointermove", function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x;
    if (!drag.moved && Math.abs(dx) < 6) return;
    drag.moved = true;
    drag.card.classList.add("dragging");
    drag.card.style.transform = "translateX(" + dx + "px) rotate(" + dx / 18 + "deg)";
  });
  document.addEventListener("pointerup", function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x, card = drag.card, moved = drag.moved;
    drag = null;
    if (!moved) return;
    card.classList.remove("dragging");
    var button = Math.abs(dx) >= SWIPE_THRESHOLD && swipeButton(dx > 0 ? "like" : "pass");
    if (button && !button.disabled) button.click(); else swipeReset(card);
    draggedAt = Date.now();
  });
  document.addEventListener("click", function (e) {
    if (Date.now() - draggedAt < 400 && e.target.closest && e.target.closest(".swipe-card")) e.preventDefault();
  }, true);
  document.addEventListener("pointercancel", function () { if (drag) swipeReset(drag.card); drag = null; });
  document.addEventListener("keydown", function (e) {
    if ((e.key !== "ArrowRight" && e.key !== "ArrowLeft") || !swipeTop()) return;
    if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return;  // a modal is open
    if (e.target.closest && e.target.closest("input, textarea, select, [contenteditable]")) return;
    var button = swipeButton(e.key === "ArrowRight" ? "like" : "pass");
    if (button && !button.disabled) { e.preventDefault(); button.click(); }
  });

  // In the chat composer Enter sends and Shift+Enter starts a new line.
  document.addEventListener("keydown", function (e) {
    var box = e.target;
    if (e.key !== "Enter" || e.shiftKey || e.isComposing || !box.matches || !box.matches("[data-enter-sends]")) return;
    e.preventDefault();
    if (box.form) box.form.requestSubmit();
  });

  // The chat draft stays in the browser until the server confirms it was sent: its text, its
  // character count, and its client id (one per message, so a retry stores and charges it once),
  // kept per address in sessionStorage so a reconnect or a server restart loses neither.
  // Typing notices go to the server at most every 3 s, without the text.
  var TYPING_EVERY_MS = 3000, typingAt = 0;
  function draftKey() { return "chat-draft:" + window.location.pathname; }
  function newClientId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Array.from(crypto.getRandomValues(new Uint8Array(16)), function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function savedDraft() {
    try { return JSON.parse(sessionStorage.getItem(draftKey()) || "null"); } catch (e) { return null; }
  }
  function keepDraft(form) {
    try {
      sessionStorage.setItem(draftKey(), JSON.stringify({ text: form.elements.text.value, id: form.elements.client_id.value }));
    } catch (e) { /* storage full or off: the draft still lives in the page */ }
  }
  function countDraft(form) {
    var counter = form.querySelector("[data-chat-counter]"), count = form.querySelector("[data-chat-count]");
    if (!counter || !count) return;
    var length = form.elements.text.value.length;
    count.textContent = String(length);
    counter.classList.toggle("over", length > (Number(counter.getAttribute("data-max")) || Infinity));
  }
  function prepareComposer(form) {
    if (form.dataset.ready === draftKey()) return;
    form.dataset.ready = draftKey();
    var draft = savedDraft();
    form.elements.text.value = draft ? draft.text : "";
    form.elements.client_id.value = draft && draft.id ? draft.id : newClientId();
    countDraft(form);
  }
  function composers() { return document.querySelectorAll("form[data-chat-composer]"); }
  new MutationObserver(function () { composers().forEach(prepareComposer); })
    .observe(document.documentElement, { subtree: true, childList: true });
  document.addEventListener("input", function (e) {
    var form = e.target.form;
    if (!form || !form.hasAttribute("data-chat-composer") || e.target.name !== "text") return;
    keepDraft(form);
    countDraft(form);
    if (e.target.value.trim() && Date.now() - typingAt >= TYPING_EVERY_MS) {
      typingAt = Date.now();
      var notice = document.getElementById("chat-typing");
      if (notice) notice.click();
    }
  });
  // A gift has a client id of its own, kept per address like the draft's until the server
  // confirms the gift; it goes into the picker's form as the form is sent (capture runs
  // before React's handler reads the form).
  var giftIds = {}; // the same, for a browser without sessionStorage
  function giftKey() { return "chat-gift:" + window.location.pathname; }
  function giftId() {
    var key = giftKey(), id = giftIds[key];
    try { id = sessionStorage.getItem(key) || id; } catch (e) { /* off: the page keeps it */ }
    giftIds[key] = id = id || newClientId();
    try { sessionStorage.setItem(key, id); } catch (e) { /* off: the page keeps it */ }
    return id;
  }
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (form instanceof HTMLFormElement && form.hasAttribute("data-chat-gift")) form.elements.client_id.value = giftId();
  }, true);
  // A text for the chat the page shows at its newest end goes straight to the server
  // (app/chat_api.py send_text), not through the tab's state: the answer shows it as the
  // arrivals below are shown, and the socket brings the new balance. Anything but a stored
  // message (a refusal, a text the filter flags, the network or the database away) sends the
  // same text and client id through the state, which stores and charges it once and says why.
  var sendingText = false, SEND_TIMEOUT_MS = 10000;
  function sentChat(form) {
    var chat = Number(form.getAttribute("data-send-chat")) || 0;
    var shown = /^\/chats\/(\d+)\/?$/.exec(window.location.pathname);
    return shown && Number(shown[1]) === chat ? chat : 0;
  }
  // The server stored the draft `text`: a new client id, the composer emptied unless the
  // member wrote on meanwhile, and the next keystroke tells the other member again.
  function draftSent(form, text) {
    typingAt = 0;
    if (form.elements.text.value === text) form.elements.text.value = "";
    form.elements.client_id.value = newClientId();
    keepDraft(form);
    countDraft(form);
  }
  function throughState(form) {
    form.dataset.throughState = "1";
    form.requestSubmit();
  }
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-chat-composer")) return;
    if (form.dataset.throughState) { delete form.dataset.throughState; return; }
    var chat = sentChat(form), to = Number(form.getAttribute("data-send-to")) || 0;
    var tab = null;
    try { tab = sessionStorage.getItem("token"); } catch (err) { /* off: through the state */ }
    if (!chat || !to || !tab || !window.fetch || !window.AbortController) return;
    e.preventDefault();
    e.stopPropagation();
    if (sendingText) return;
    sendingText = true;
    var clientId = form.elements.client_id.value;
    var body = {
      conversation: chat, to: to, client_id: clientId, text: form.elements.text.value, tab: tab,
      language: document.documentElement.lang
    };
    // A post that hangs (a dead connection) is given up, so the composer never stays stuck.
    var abort = new AbortController(), giveUp = setTimeout(function () { abort.abort(); }, SEND_TIMEOUT_MS);
    fetch("/api/chat.php", {
      method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), signal: abort.signal
    }).then(function (response) { return response.ok ? response.json() : null; })
      .catch(function () { return null; })
      .then(function (answer) {
        clearTimeout(giveUp);
        sendingText = false;
        if (!answer || !answer.message) return throughState(form);
        arrived(answer.conversation, answer.message);
        if (form.elements.client_id.value === clientId) draftSent(form, body.text);
      });
  }, true);
  // Chat messages that arrived live without the tab's state (state/live.py LeanPush), kept per
  // conversation: the window and the list show them beside the state's own
  // (components/chat_live.py), without doubles, in order, until a catch-up brings them in. Each
  // keeps at most the window's size (state/chats.py SHOWN_MESSAGES); those the state has or
  // that fell out of the window go, and so does every other chat's when the open chat changes.
  var arrivals = {}, arrivalsVersion = 0, arrivalListeners = [], arrivalsKept = 120, openChat = null;
  function redrawArrivals() {
    arrivalsVersion += 1;
    arrivalListeners.slice().forEach(function (listener) { listener(); });
  }
  // Every half window's worth the state takes them in (state/chats.py take_arrivals), so a
  // long exchange between two refreshes never outgrows what is kept here.
  var arrivalsTaken = arrivalsKept / 2, sinceTaken = 0;
  function arrived(conversationId, bubble) {
    var kept = (arrivals[conversationId] = arrivals[conversationId] || {});
    if (kept[bubble.id]) return;
    kept[bubble.id] = bubble;
    var ids = Object.keys(kept).map(Number).sort(function (a, b) { return a - b; });
    ids.slice(0, Math.max(0, ids.length - arrivalsKept)).forEach(function (id) { delete kept[id]; });
    redrawArrivals();
    var take = document.getElementById("chat-take-arrivals");
    if (take && ++sinceTaken >= arrivalsTaken) { sinceTaken = 0; take.click(); }
  }
  function opened(conversationId) {
    if (conversationId === openChat) return;
    openChat = conversationId;
    Object.keys(arrivals).forEach(function (id) { if (Number(id) !== conversationId) delete arrivals[id]; });
  }
  // Drops what the state's window shows or begins after (no redraw: nothing shown changes).
  function pruneArrivals(conversationId, messages) {
    var kept = arrivals[conversationId] || {}, first = messages.length ? messages[0].id : 0;
    var shown = {};
    messages.forEach(function (message) { shown[message.id] = true; });
    Object.keys(kept).forEach(function (id) { if (shown[id] || Number(id) < first) delete kept[id]; });
  }
  function forget(conversationId) {
    delete arrivals[conversationId];
    redrawArrivals();
  }
  function arrivedIn(conversationId) {
    var kept = arrivals[conversationId] || {};
    return Object.keys(kept).map(function (id) { return kept[id]; });
  }
  window.siteChatLiveVersion = function () { return arrivalsVersion; };
  window.siteChatLiveSubscribe = function (listener) {
    arrivalListeners.push(listener);
    return function () { arrivalListeners = arrivalListeners.filter(function (l) { return l !== listener; }); };
  };
  // The open chat's messages with what arrived after the first of them; none while the member
  // reads back (they wait behind "Newer messages").
  window.siteChatShown = function (messages, conversationId, moreAfter) {
    opened(conversationId);
    pruneArrivals(conversationId, messages);
    if (moreAfter) return messages;
    var extra = arrivedIn(conversationId);
    if (!extra.length) return messages;
    return messages.concat(extra).sort(function (a, b) { return a.id - b.id; });
  };
  // The list with the open chat's card on top, quoting its newest message, when one arrived
  // after the card's (a card from the database knows only its time).
  window.siteChatCards = function (chats, conversationId) {
    opened(conversationId);
    var newest = arrivedIn(conversationId).reduce(function (a, b) { return a && a.id > b.id ? a : b; }, null);
    var index = newest ? chats.findIndex(function (card) { return card.id === conversationId; }) : -1;
    if (index < 0) return chats;
    var card = chats[index];
    if (card.last_id ? newest.id <= card.last_id : newest.at < card.at) return chats;
    var moved = Object.assign({}, card, {
      text: newest.body, gift: newest.gift, at: newest.at, from_me: newest.mine, unread: 0,
      veiled: newest.flagged, removed: newest.removed, last_id: newest.id
    });
    return [moved].concat(chats.slice(0, index), chats.slice(index + 1));
  };
  window.siteChat = {
    // A message arrived live in a chat this tab shows (state/chats.py ARRIVED_SCRIPT).
    arrived: arrived,
    // The member removed the chat: what arrived in it before is not shown again.
    forget: forget,
    // The gift was stored: the next one gets a new client id.
    giftSent: function () {
      delete giftIds[giftKey()];
      try { sessionStorage.removeItem(giftKey()); } catch (e) { /* off: nothing kept */ }
    },
    // The server stored the message (through the tab's state).
    sent: function () {
      composers().forEach(function (form) { draftSent(form, form.elements.text.value); });
    },
    // An icebreaker: into the draft, to be changed before it is sent.
    fill: function (text) {
      composers().forEach(function (form) {
        form.elements.text.value = text;
        keepDraft(form);
        countDraft(form);
        form.elements.text.focus();
      });
    }
  };

  // The interface texts of one language at a time (app/catalogue_api.py): the page's head
  // loads the visitor's; another is loaded when first asked for, and the components that read
  // texts redraw once it is there (components/i18n.py subscribes them). Region names are
  // loaded the same way, by the first page that shows one, and redraw only what shows them.
  function catalogues(store, folder) {
    var listeners = [], version = 0, asked = {};
    return {
      loaded: function () {
        version += 1;
        listeners.slice().forEach(function (listener) { listener(); });
      },
      subscribe: function (listener) {
        listeners.push(listener);
        return function () { listeners = listeners.filter(function (l) { return l !== listener; }); };
      },
      version: function () { return version; },
      lookup: function (key, locale) {
        var all = (window[store] = window[store] || {}), texts = all[locale];
        if (texts) return texts[key];
        if (!asked[locale]) {
          asked[locale] = true;
          var script = document.createElement("script");
          script.src = folder + locale + ".js?v=" + catalogueVersion();
          document.head.appendChild(script);
        }
        for (var loaded in all) return all[loaded][key];  // meanwhile: the last language
        return undefined;
      },
    };
  }
  function catalogueVersion() {  // the one the page's head loaded names it
    var first = document.querySelector('script[src^="/i18n/"]');
    return first ? new URL(first.src).searchParams.get("v") || "" : "";
  }
  // Each replaces its script's stand-in, which only reads what is loaded. The catalogue parts
  // (translations/catalog.py CATALOGUE_PARTS: the staff console's texts, the legal documents')
  // are catalogues of their own, which only their pages ask for.
  function expose(name, catalogue, lookupName) {
    window[name + "Loaded"] = catalogue.loaded;
    window[name + "Subscribe"] = catalogue.subscribe;
    window[name + "Version"] = catalogue.version;
    window[lookupName] = catalogue.lookup;
  }
  expose("i18n", catalogues("__i18n", "/i18n/"), "i18nText");
  expose("i18nRegions", catalogues("__i18nRegions", "/i18n/regions/"), "i18nRegion");
  ["staff", "legal"].forEach(function (part) {
    var name = "i18n" + part.charAt(0).toUpperCase() + part.slice(1);
    expose(name, catalogues("__" + name, "/i18n/" + part + "/"), name + "Text");
  });
})();
