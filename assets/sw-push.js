// Push service worker: shows notifications and tells open pages about them.
self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { body: event.data && event.data.text() }; }
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (clients) {
      clients.forEach(function (client) { client.postMessage({ type: "NEW_PUSH_MESSAGE", payload: data }); });
      return self.registration.showNotification(data.title || "", {
        body: data.body || "",
        icon: data.icon || "/icon-192.png",
        badge: "/icon-192.png",
        data: { checkUrl: data.checkUrl || null, openUrl: data.openUrl || "/chats" },
      });
    })
  );
});

// The page a notification opens: a path of this site only.
function sitePath(url) {
  try {
    var target = new URL(url || "/", self.location.origin);
    return target.origin === self.location.origin ? target.pathname + target.search : "/";
  } catch (e) {
    return "/";
  }
}

// A click on a notification: an open tab of the site is sent to its page and focused, else a
// new tab opens there.
function openTarget(target) {
  var openUrl = sitePath(target.openUrl);
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (clients) {
    if (!clients.length) return self.clients.openWindow(openUrl);
    var client = clients[0];
    client.postMessage({ type: "NEW_PUSH_CLICK", checkUrl: target.checkUrl, openUrl: openUrl });
    return client.focus().catch(function () {});
  });
}

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  event.waitUntil(openTarget(event.notification.data || {}));
});
