// Tollgate's passkey forms (docs/passkeys.md#the-pages). Each <form data-passkey="get|create"> holds
// the server's WebAuthn options (JSON, base64url binary) in data-passkey-options; its button runs the
// ceremony, the response goes into the form's `credential` field as JSON, and the form is posted.
// A login page form also offers the browser's passkey autofill (conditional mediation) where it has it.
(function () {
  'use strict';

  function toBytes(base64url) {
    var base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
    var binary = atob(base64 + '==='.slice((base64.length + 3) % 4));
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  }

  function toBase64url(buffer) {
    var bytes = new Uint8Array(buffer);
    var binary = '';
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  function withIds(list) {
    return (list || []).map(function (descriptor) {
      return Object.assign({}, descriptor, { id: toBytes(descriptor.id) });
    });
  }

  function publicKeyOptions(form) {
    var options = JSON.parse(form.dataset.passkeyOptions);
    options.challenge = toBytes(options.challenge);
    if (form.dataset.passkey === 'create') {
      options.user = Object.assign({}, options.user, { id: toBytes(options.user.id) });
      options.excludeCredentials = withIds(options.excludeCredentials);
    } else {
      options.allowCredentials = withIds(options.allowCredentials);
    }
    return options;
  }

  function credentialJson(credential) {
    var response = credential.response;
    var json = { clientDataJSON: toBase64url(response.clientDataJSON) };
    if (response.attestationObject) {
      json.attestationObject = toBase64url(response.attestationObject);
      json.transports = typeof response.getTransports === 'function' ? response.getTransports() : [];
    } else {
      json.authenticatorData = toBase64url(response.authenticatorData);
      json.signature = toBase64url(response.signature);
      if (response.userHandle) json.userHandle = toBase64url(response.userHandle);
    }
    return JSON.stringify({
      id: credential.id,
      rawId: toBase64url(credential.rawId),
      type: credential.type,
      response: json,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: credential.getClientExtensionResults(),
    });
  }

  function post(form, credential) {
    form.elements.namedItem('credential').value = credentialJson(credential);
    form.submit();
  }

  function showError(form, message) {
    var alert = form.querySelector('[data-passkey-error]');
    alert.textContent = message;
    alert.hidden = false;
  }

  function setUp(form) {
    var button = form.querySelector('[data-passkey-start]');
    var autofill = null;
    button.hidden = false;
    button.addEventListener('click', function () {
      if (autofill) autofill.abort();
      var ceremony = form.dataset.passkey === 'create' ? navigator.credentials.create : navigator.credentials.get;
      ceremony
        .call(navigator.credentials, { publicKey: publicKeyOptions(form) })
        .then(function (credential) {
          if (credential) post(form, credential);
        })
        .catch(function () {
          showError(form, 'No passkey was used. Try again, or use your password.');
        });
    });
    if (form.dataset.passkey !== 'get' || !document.querySelector('input[autocomplete~="webauthn"]')) return;
    if (typeof PublicKeyCredential.isConditionalMediationAvailable !== 'function') return;
    PublicKeyCredential.isConditionalMediationAvailable().then(function (available) {
      if (!available) return;
      autofill = new AbortController();
      navigator.credentials
        .get({ mediation: 'conditional', publicKey: publicKeyOptions(form), signal: autofill.signal })
        .then(function (credential) {
          if (credential) post(form, credential);
        })
        .catch(function () {
          // Aborted for the button, or dismissed: the forms stay as they are.
        });
    });
  }

  if (!window.PublicKeyCredential || !navigator.credentials) return;
  document.querySelectorAll('form[data-passkey]').forEach(setUp);
})();
