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

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = event.notification.data || {};
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (clients) {
      if (clients.length) {
        var client = clients[0];
        client.postMessage({ type: "NEW_PUSH_CLICK", checkUrl: target.checkUrl, openUrl: target.openUrl });
        return client.focus();
      }
      return self.clients.openWindow(target.openUrl || "/");
    })
  );
});
