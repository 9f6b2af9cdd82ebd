package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.lineup.api.ErrorCode;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.Limits;
import io.lineup.core.model.QueueName;
import io.lineup.server.auth.NamespaceStore;
import io.lineup.server.auth.Principal;
import io.lineup.server.auth.Scope;
import io.lineup.server.auth.TokenRecord;
import io.lineup.server.auth.TokenStore;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import io.lineup.server.http.RequestBody;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** The admin routes: namespaces and namespace tokens (create, list, revoke). */
public final class AdminHandlers {
  /** Default highest priority a new token may publish with (0, the normal priority). */
  public static final int DEFAULT_MAX_PRIORITY = 0;

  private static final Set<String> NAMESPACE_FIELDS = Set.of("name");
  private static final Set<String> TOKEN_FIELDS =
      Set.of("namespace", "scopes", "max_priority", "name");

  private final ApiContext api;

  public AdminHandlers(ApiContext api) {
    this.api = api;
  }

  /** {@code POST /v1/admin/namespaces}: 201, or 409 when it exists. */
  public void createNamespace(Context ctx, Principal principal) {
    JsonFields f =
        JsonFields.of(
            RequestBody.read(ctx, api.limits().maxBodyBytes(), true), "", NAMESPACE_FIELDS);
    String name = namespaceName(f.requiredText("name", QueueName.MAX_LENGTH + 1), "name");
    NamespaceStore.Namespace created =
        api.auth()
            .namespaces()
            .create(name)
            .orElseThrow(() ->
                new ApiException(
                    ErrorCode.ALREADY_EXISTS, "name", "namespace " + name + " exists already"));
    Responses.json(ctx, 201, created.json());
  }

  /** {@code GET /v1/admin/namespaces}. */
  public void listNamespaces(Context ctx, Principal principal) {
    ObjectNode answer = Json.object();
    ArrayNode list = answer.putArray("namespaces");
    api.auth().namespaces().list().forEach(namespace -> list.add(namespace.json()));
    Responses.json(ctx, 200, answer);
  }

  /**
   * {@code DELETE /v1/admin/namespaces/{ns}}: removes the namespace and revokes its tokens (its
   * queues and jobs stay).
   */
  public void deleteNamespace(Context ctx, Principal principal) {
    String name = PathNames.namespace(ctx);
    if (!api.auth().namespaces().delete(name)) {
      throw ApiException.notFound("no namespace " + name);
    }
    api.auth().tokens().revokeNamespace(name);
    Responses.noContent(ctx);
  }

  /** {@code POST /v1/admin/tokens}: 201 with the token, shown only in this answer. */
  public void createToken(Context ctx, Principal principal) {
    JsonFields f =
        JsonFields.of(RequestBody.read(ctx, api.limits().maxBodyBytes(), true), "", TOKEN_FIELDS);
    String namespace =
        namespaceName(f.requiredText("namespace", QueueName.MAX_LENGTH + 1), "namespace");
    List<String> scopeNames = f.optionalTextList("scopes", Scope.values().length, 20);
    if (scopeNames == null) {
      throw ApiException.invalidField(
          "scopes", "is required: a list of publish, consume, manage, read");
    }
    Set<Scope> scopes = EnumSet.noneOf(Scope.class);
    for (int i = 0; i < scopeNames.size(); i++) {
      try {
        scopes.add(Scope.fromJson(scopeNames.get(i)));
      } catch (IllegalArgumentException e) {
        throw ApiException.invalidField(
            "scopes[" + i + "]", "must be publish, consume, manage or read");
      }
    }
    int maxPriority =
        (int)
            f.longOr(
                "max_priority", Limits.MIN_PRIORITY, Limits.MAX_PRIORITY, DEFAULT_MAX_PRIORITY);
    String name = f.optionalText("name", TokenStore.MAX_NAME_LENGTH);
    if (!api.auth().namespaces().exists(namespace)) {
      throw new ApiException(
          ErrorCode.NOT_FOUND,
          "namespace",
          "no namespace " + namespace + "; create it first with POST /v1/admin/namespaces");
    }
    TokenStore.IssuedToken issued =
        api.auth().tokens().issue(namespace, scopes, maxPriority, name == null ? "" : name);
    ObjectNode answer = issued.record().publicJson();
    answer.put("token", issued.token());
    Responses.json(ctx, 201, answer);
  }

  /** {@code GET /v1/admin/tokens[?namespace=]}: ids and grants, never the tokens. */
  public void listTokens(Context ctx, Principal principal) {
    String namespace = ctx.queryParam("namespace");
    if (namespace != null) {
      namespace = namespaceName(namespace, "namespace");
    }
    ObjectNode answer = Json.object();
    ArrayNode list = answer.putArray("tokens");
    for (TokenRecord record : api.auth().tokens().list(namespace)) {
      list.add(record.publicJson());
    }
    Responses.json(ctx, 200, answer);
  }

  /** {@code DELETE /v1/admin/tokens/{id}}: 204; the token is refused everywhere from now on. */
  public void revokeToken(Context ctx, Principal principal) {
    String id = ctx.pathParam("id");
    if (!TokenStore.isTokenId(id)) {
      throw new ApiException(
          ErrorCode.INVALID_NAME, "id", "a token id is 16 lowercase hexadecimal digits");
    }
    if (!api.auth().tokens().revoke(id)) {
      throw ApiException.notFound("no token " + id);
    }
    Responses.noContent(ctx);
  }

  private static String namespaceName(String name, String field) {
    try {
      return QueueName.of(name, "x").namespace();
    } catch (InvalidArgumentException e) {
      throw ApiException.invalidField(field, e.reason());
    }
  }
}
