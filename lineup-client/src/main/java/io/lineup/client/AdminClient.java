package io.lineup.client;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Namespaces and namespace tokens ({@code /v1/admin}); every call needs the admin token and throws
 * {@link ForbiddenException} with a namespace token.
 */
public final class AdminClient {
  private final Transport transport;

  AdminClient(Transport transport) {
    this.transport = transport;
  }

  /**
   * Registers a namespace so tokens can be issued for it.
   *
   * @throws AlreadyExistsException when it is registered
   * @throws InvalidRequestException when the name is malformed
   */
  public Namespace createNamespace(String name) {
    ObjectNode body = Json.object();
    body.put("name", name);
    return Namespace.read(transport.post("/v1/admin/namespaces", body).body());
  }

  /** Every registered namespace. */
  public List<Namespace> namespaces() {
    List<Namespace> list = new ArrayList<>();
    transport
        .get("/v1/admin/namespaces")
        .body()
        .path("namespaces")
        .forEach(item -> list.add(Namespace.read(item)));
    return List.copyOf(list);
  }

  /**
   * Removes a namespace and revokes its tokens; its queues and jobs stay.
   *
   * @throws NotFoundException when it is not registered
   */
  public void deleteNamespace(String name) {
    transport.delete("/v1/admin/namespaces/" + Transport.segment(name));
  }

  /**
   * Issues a token for a registered namespace.
   *
   * @param scopes one or more of {@code publish}, {@code consume}, {@code manage}, {@code read}
   * @param maxPriority the highest priority it may publish with, -255 to 255
   * @param name a label (at most 100 characters), or null
   * @return the token's record, with {@link TokenInfo#token()}: the only time its text is shown
   * @throws NotFoundException when the namespace is not registered
   */
  public TokenInfo createToken(
      String namespace, List<String> scopes, int maxPriority, String name) {
    ObjectNode body = Json.object();
    body.put("namespace", namespace);
    ArrayNode list = body.putArray("scopes");
    scopes.forEach(list::add);
    body.put("max_priority", maxPriority);
    if (name != null) {
      body.put("name", name);
    }
    return TokenInfo.read(transport.post("/v1/admin/tokens", body).body());
  }

  /**
   * Issued tokens, without their secrets.
   *
   * @param namespace only this namespace's, or null for all
   */
  public List<TokenInfo> tokens(String namespace) {
    String path =
        namespace == null
            ? "/v1/admin/tokens"
            : "/v1/admin/tokens?namespace=" + Transport.segment(namespace);
    List<TokenInfo> list = new ArrayList<>();
    transport.get(path).body().path("tokens").forEach(item -> list.add(TokenInfo.read(item)));
    return List.copyOf(list);
  }

  /**
   * Revokes a token by its id; every server instance refuses it at once.
   *
   * @throws NotFoundException when there is no such token
   */
  public void revokeToken(String id) {
    transport.delete("/v1/admin/tokens/" + Transport.segment(id));
  }
}
