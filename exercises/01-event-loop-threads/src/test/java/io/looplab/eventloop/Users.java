package io.looplab.eventloop;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** The directory's data for the test's users, and what a correct dashboard of each one is. */
final class Users {

  private Users() {
  }

  static JsonObject profileOf(String user) {
    return new JsonObject().put("name", user.substring(0, 1).toUpperCase() + user.substring(1))
        .put("city", switch (user) {
          case "ada" -> "London";
          case "bob" -> "Lyon";
          default -> "Oslo";
        });
  }

  static JsonArray ordersOf(String user) {
    return switch (user) {
      case "ada" -> new JsonArray().add("book").add("lamp");
      case "bob" -> new JsonArray().add("kettle");
      default -> new JsonArray().add(user + "-order");
    };
  }

  static JsonObject dashboardOf(String user) {
    return new JsonObject().put("user", user).put("profile", profileOf(user)).put("orders", ordersOf(user));
  }

  /** The message of the error a failed lookup carries: "the orders service is down (asked for ada)". */
  static String outage(String kind, String user) {
    return "the " + kind + " service is down (asked for " + user + ")";
  }
}
