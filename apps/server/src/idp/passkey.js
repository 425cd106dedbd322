/* global window, document */
// Passkey buttons of the sign-in pages (the second-factor page and the login page). Without JavaScript or without
// WebAuthn in the browser they stay hidden. A click asks the browser for a passkey with the options the server put
// on the button, and posts the browser's answer with the button's form; the server checks it.
(function () {
  'use strict';
  var lib = window.SimpleWebAuthnBrowser;
  if (!lib || !lib.browserSupportsWebAuthn()) return;

  function setup(section) {
    var button = section.querySelector('button[data-options]');
    var form = section.querySelector('form');
    var message = section.querySelector('[data-passkey-message]');
    if (!button || !form || !message) return;
    var options = JSON.parse(button.getAttribute('data-options'));
    section.hidden = false;

    button.addEventListener('click', function () {
      button.disabled = true;
      message.hidden = true;
      lib
        .startAuthentication({ optionsJSON: options })
        .then(function (answer) {
          form.elements.namedItem('response').value = JSON.stringify(answer);
          form.submit();
        })
        .catch(function () {
          // Cancelled, timed out or refused by the browser: say so, and let the person try again.
          message.textContent = message.getAttribute('data-cancelled');
          message.hidden = false;
          button.disabled = false;
        });
    });
  }

  var sections = document.querySelectorAll('[data-passkey]');
  for (var i = 0; i < sections.length; i++) setup(sections[i]);
})();
